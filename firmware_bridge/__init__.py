"""The serial link to the LED matrix controller (stock WLED or the FastLED Adalight sketch).

* :mod:`firmware_bridge.adalight` - the Adalight frame encoder, a streaming
  decoder and the device's ``Ada`` hello;
* :mod:`firmware_bridge.layout` - picture (rows) -> LED chain order,
  brightness and a current limit;
* :mod:`firmware_bridge.link` - :class:`LedLink`, which never blocks the game
  loop, is never behind, and survives stalls and unplugging (field reports
  L-1, L-2; issue 12);
* :mod:`firmware_bridge.discovery` - :class:`ControllerFinder`, ``port = "auto"``:
  the controller found among the USB serial devices by its answer;
* :mod:`firmware_bridge.wled` - WLED's serial facts and a byte-exact model of
  its serial parser; :mod:`firmware_bridge.ddp` - :class:`DdpLink`, the same
  frames to a WLED on the Wi-Fi;
* :mod:`firmware_bridge.virtual` - :class:`VirtualMatrix`, a matrix behind a
  pty for laptops, demos and tests.

The pictures themselves come from :mod:`arcade.lights.pictures` (pure).  Typical use::

    link = LedLink(None, locate=ControllerFinder())   # port "auto"; stock WLED at 115200
    link.show_picture(scores_picture([3, 5], 16, 16))   # once a frame, never blocks
    link.close()
"""

from firmware_bridge.adalight import AdalightDecoder, encode_frame, is_hello
from firmware_bridge.ddp import DdpLink
from firmware_bridge.discovery import ControllerFinder
from firmware_bridge.errors import BridgeError, FrameError, LayoutError, LinkSettingsError
from firmware_bridge.layout import MatrixLayout, limit_current, scale_brightness
from firmware_bridge.link import Found, LedLink, LinkStatus, find_port_by_usb_id
from firmware_bridge.wled import WledSerialModel

__all__ = [
    "AdalightDecoder",
    "ControllerFinder",
    "DdpLink",
    "Found",
    "WledSerialModel",
    "BridgeError",
    "FrameError",
    "LayoutError",
    "LedLink",
    "LinkSettingsError",
    "LinkStatus",
    "MatrixLayout",
    "encode_frame",
    "find_port_by_usb_id",
    "is_hello",
    "limit_current",
    "scale_brightness",
]
