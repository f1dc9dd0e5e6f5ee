"""The UI toolkit of the simulated phone: views (widgets.py), the renderer, the a11y export, theme and fonts.

Apps build screens with ``from mobilegym.sim import ui`` and ``ui.Button(...)`` etc.: the view classes
are re-exported here."""
from .widgets import (
    FAB_CLEARANCE, LINE_HEIGHT, Button, Card, Checkbox, Chip, Column, Dialog, Divider, Fab, Handler, Icon,
    IconButton, Image, Item, LayoutEnv, ListItem, Radio, Row, Scaffold, ScrollList, Slider, Spacer, Switch,
    Tabs, Text, TextField, Toast, Toggle, TopBar, View, key_fields,
)

__all__ = [
    "FAB_CLEARANCE", "LINE_HEIGHT", "Button", "Card", "Checkbox", "Chip", "Column", "Dialog", "Divider", "Fab",
    "Handler", "Icon", "IconButton", "Image", "Item", "LayoutEnv", "ListItem", "Radio", "Row", "Scaffold",
    "ScrollList", "Slider", "Spacer", "Switch", "Tabs", "Text", "TextField", "Toast", "Toggle", "TopBar", "View",
    "key_fields",
]
