import sys

from explore.cli import main

sys.exit(main())
