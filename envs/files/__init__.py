"""Files: a file manager modelled on Files by Google: browse the phone's storage with a path bar, sort, file
details, new folders, rename, move and copy, delete to the Trash (restore, empty), share, search by name,
categories and storage used."""
from .app import APP

from . import prepare, screens  # noqa: F401  (registers the preparers and screens on APP)

__all__ = ["APP"]
