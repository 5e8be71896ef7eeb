#!/usr/bin/env bash
# Re-take the screenshots under docs/screenshots/ from the browser tests (headless Chromium at 1600x1200):
# the tests save to test-artifacts/; the README's two images and the after/ set are copied from there.
set -euo pipefail
cd "$(dirname "$0")/.."
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
python -m pytest -m slow -q tests/test_app_browser_explore.py tests/test_app_browser_navigation.py \
  tests/test_app_browser_maps.py tests/test_app_browser_pages.py tests/test_app_browser_reading_speed.py \
  tests/test_app_browser_famous_seeds.py
mkdir -p docs/screenshots/after
for shot in test-artifacts/{explore,navigation,maps,pages,reading,famous}_*.png; do cp "$shot" docs/screenshots/after/; done
cp test-artifacts/explore_marie_curie.png docs/screenshots/explore.png
cp test-artifacts/maps_clicked.png docs/screenshots/maps.png
echo "docs/screenshots/ refreshed: look at each image before committing"
