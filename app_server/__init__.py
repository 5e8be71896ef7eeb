"""What the app's web server adds to Streamlit's (serve.py mounts it): nothing a page draws, only how pages are served."""
