"""The UI toolkit of the simulated phone: the view base and containers (view.py), widgets (widgets.py),
chrome (chrome.py), the renderer (render.py), the a11y export (a11y.py), theme and fonts.

Apps build screens with ``from mobilegym.sim import ui`` and ``ui.Button(...)`` etc.: the view classes
are re-exported here."""
from .chrome import (
    ALERT_TITLE, FAB_CLEARANCE, MESSAGE, NEGATIVE, NEUTRAL, POSITIVE, Dialog, Drawer, Fab, Scaffold, Toast, TopBar,
)
from .view import Card, Column, Divider, Handler, Item, LayoutEnv, Row, Rows, ScrollList, Spacer, Touch, View
from .widgets import (
    LINE_HEIGHT, Button, Checkbox, Chip, Icon, IconButton, Image, ListItem, Radio, Slider, Switch, Tabs, Text,
    TextField, Toggle, key_fields,
)

__all__ = [
    "ALERT_TITLE", "MESSAGE", "NEGATIVE", "NEUTRAL", "POSITIVE",
    "FAB_CLEARANCE", "LINE_HEIGHT", "Button", "Card", "Checkbox", "Chip", "Column", "Dialog", "Divider", "Drawer", "Fab",
    "Handler", "Icon", "IconButton", "Image", "Item", "LayoutEnv", "ListItem", "Radio", "Row", "Rows", "Scaffold",
    "ScrollList", "Slider", "Spacer", "Switch", "Tabs", "Text", "TextField", "Toast", "Toggle", "TopBar", "Touch",
    "View", "key_fields",
]
