"""WebSocket frames compressed on the wire (permessage-deflate, RFC 7692).

A frame is a viewer's whole table, redrawn as HTML: about 6 KB, most of it the
same as the frame before. Daphne's WebSocket layer (Autobahn) can deflate
messages but accepts no offer unless told to. Accepted with context takeover,
the compressor keeps the last frames in its window, so the next one is sent
mostly as references to what the viewer already has: the bytes of a change, not
of the page. Every current browser offers the extension; a client that does not
gets plain frames.

The compressor's window is 8 KB and its memory level 5: about 50 KB per socket
instead of zlib's default 260 KB, since a Daphne holds thousands of sockets;
8 KB still spans most of the previous frame.
"""

from __future__ import annotations

from typing import Any

#: The compressor's window, as a power of two (zlib: 8 to 15).
WINDOW_BITS = 13
#: zlib's memory level for the compressor (1 to 9).
MEM_LEVEL = 5


def accept_deflate(offers: list[Any]) -> Any:
    """Autobahn's ``perMessageCompressionAccept``: take the client's first
    permessage-deflate offer, else send plain frames. The smaller window and
    memory level are the compressor's own: any client inflates what a smaller
    window made, so nothing about them is negotiated."""
    from autobahn.websocket.compress import PerMessageDeflateOffer, PerMessageDeflateOfferAccept

    for offer in offers:
        if isinstance(offer, PerMessageDeflateOffer):
            window = WINDOW_BITS
            if offer.request_max_window_bits:
                window = min(window, offer.request_max_window_bits)
            return PerMessageDeflateOfferAccept(offer, window_bits=window, mem_level=MEM_LEVEL)
    return None


def compress_daphne_sockets() -> bool:
    """Make the Daphne serving this process accept permessage-deflate. Returns
    whether Daphne was there (another ASGI server negotiates on its own)."""
    import sys

    module = sys.modules.get("daphne.ws_protocol")
    if module is None:
        return False
    factory = module.WebSocketFactory
    if getattr(factory, "blot_compression", False):
        return True
    original_init = factory.__init__

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        original_init(self, *args, **kwargs)
        self.setProtocolOptions(perMessageCompressionAccept=accept_deflate)

    factory.__init__ = __init__
    factory.blot_compression = True
    return True
