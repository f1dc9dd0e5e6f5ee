"""The Files app's declaration; the package registers its screens and preparers on it."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="files", label="Files", label_zh="文件", home="/", glyph="▤", color="#1A73E8",
             defaults_package=__package__, generate=generate,
             view_state=("sort",))  # how the lists are sorted is a view preference, not the user's files
