"""Files: a file manager modelled on Files by Google: browse the phone's storage with a path bar, sort, file
details, new folders, rename, move and copy, delete to the Trash (restore, empty), share, search by name,
categories and storage used."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="files", label="Files", label_zh="文件", home="/", glyph="▤", color="#1A73E8",
             defaults_package=__name__, generate=generate,
             view_state=("sort",))  # how the lists are sorted is a view preference, not the user's files

from . import prepare, screens  # noqa: E402,F401  (registers the preparers and screens on APP)
