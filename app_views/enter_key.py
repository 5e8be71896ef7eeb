"""Enter in a text box as an event the page can act on: the title search takes its top suggestion on Enter.

Streamlit's live text input sends what is typed on every pause, so by the time Enter is pressed there is nothing
left to send and the server cannot tell Enter from a pause. This one-line component (a Streamlit v2 component,
no markup of its own) listens for Enter on the box whose widget key it is given and sends the box's text as a
one-shot trigger.
"""
from __future__ import annotations

from app_views.component_input import install_component_bounds

ENTER = "enter"
_JS = """
export default function (component) {
  // One listener for the whole page, on the document (capture phase): it survives the box being drawn after this
  // component, or drawn again, and finds the box by its widget key when Enter is pressed.
  const { data, setTriggerValue } = component;
  const triggers = (window.__anEnter = window.__anEnter || {});
  triggers[data.key] = setTriggerValue;
  if (window.__anEnterListening) return;
  window.__anEnterListening = true;
  document.addEventListener("keydown", (event) => {
    const box = event.target;
    if (event.key !== "Enter" || event.isComposing || !(box instanceof HTMLInputElement) || !box.value.trim()) return;
    for (const [key, trigger] of Object.entries(window.__anEnter)) {
      if (box.closest(`.st-key-${key}`)) return trigger("enter", box.value);
    }
  }, true);
}
"""
_component = None


def enter_pressed(widget_key: str) -> str | None:
    """The text in the box `widget_key` when the reader pressed Enter in it on this rerun, else None."""
    global _component
    import streamlit as st

    if _component is None:
        install_component_bounds()  # what the browser sends back is bounded before it is parsed
        _component = st.components.v2.component("aspectnav_enter_key", js=_JS, isolate_styles=False)
    result = _component(data={"key": widget_key}, key=f"{widget_key}-enter", height=0, on_enter_change=lambda: None)
    return result.enter if result.enter else None
