"""Gallery: photos and camera modelled on Google Photos: a photo grid grouped by day, albums (Camera,
Screenshots, Downloads, Favourites and the user's own), a viewer with details, favourite, share, edit (rotate,
crop, filter) and delete to the Trash, the Trash (restore, empty), search by place, subject or date, and a camera
(photo and video, back and front lens) that saves to Camera at the phone's simulated time."""
from .app import APP

from . import prepare, screens  # noqa: F401  (registers the preparers and screens on APP)

__all__ = ["APP"]
