"""What the app's web server adds to Streamlit's (serve.py mounts it): how pages are served, nothing they draw."""
