"""The Gallery app's declaration; the package registers its screens and preparers on it."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="gallery", label="Gallery", label_zh="相册", home="/", glyph="✿", color="#0B8043",
             defaults_package=__package__, generate=generate,
             view_state=("camera",))  # the camera's mode and lens are how the tool is set, not the user's photos
