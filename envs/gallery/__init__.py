"""Gallery: photos and camera modelled on Google Photos: a photo grid grouped by day, albums (Camera,
Screenshots, Downloads, Favourites and the user's own), a viewer with details, favourite, share, edit (rotate,
crop, filter) and delete to the Trash, the Trash (restore, empty), search by place, subject or date, and a camera
(photo and video, back and front lens) that saves to Camera at the phone's simulated time."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="gallery", label="Gallery", label_zh="相册", home="/", glyph="✿", color="#0B8043",
             defaults_package=__name__, generate=generate,
             view_state=("camera",))  # the camera's mode and lens are how the tool is set, not the user's photos

from . import prepare, screens  # noqa: E402,F401  (registers the preparers and screens on APP)
