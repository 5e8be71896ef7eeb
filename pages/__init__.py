"""Streamlit pages: thin views over explore/ and training/."""
