"""The app as readers are served it: `streamlit run serve.py` runs app.py's pages behind the middleware of app_server/.

app.py stays the page script (`streamlit run app.py` works too, and AppTest runs it); this entry adds the page address
hint (app_server/page_address_hint.py), so opening /maps or /corpus connects at once instead of 100 ms later, serves
the maps' points over HTTP (app_server/map_layers.py), fetched once by the browser instead of sent on every run,
answers the proxy check of a study served online (app_server/proxy_probe.py), and has a study page reload itself when
its websocket reconnects to a new server process (app_server/reconnect_reload.py).
"""
import streamlit as st
from starlette.middleware import Middleware

from app_server.map_layers import MapLayerServer
from app_server.page_address_hint import PageAddressHint
from app_server.proxy_probe import ProxyProbe
from app_server.reconnect_reload import ReconnectReload

app = st.App("app.py", middleware=[Middleware(ProxyProbe), Middleware(MapLayerServer), Middleware(PageAddressHint),
                                   Middleware(ReconnectReload)])
