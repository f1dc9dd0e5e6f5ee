"""The Contacts app's declaration; the package registers its screens and preparers on it."""
from mobilegym.sim.app import SimApp

from .world import generate

APP = SimApp(id="contacts", label="Contacts", label_zh="通讯录", home="/", glyph="☺", color="#E65100",
             defaults_package=__package__, generate=generate)
