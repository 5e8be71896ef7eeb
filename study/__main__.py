"""`python -m study check|report ...`: the study commands alone, the same as `aspectnav study ...`."""
import sys

from aspectnav_cli import main

# prog "python -m" makes the study parser's own prog, in usage and errors, "python -m study".
sys.exit(main(["study", *sys.argv[1:]], prog="python -m"))
