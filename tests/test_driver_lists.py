"""The oracle Driver's list walks: ``collect`` reads a whole scrolling list, ``scroll_to_top`` returns to its start."""
from __future__ import annotations

import gymnasium as gym

import mobilegym  # noqa: F401
from mobilegym.oracle import Driver


def _contacts_driver() -> Driver:
    env = gym.make("MobileGym-v0", task="contacts.favorite_zoe", obs_parts=("a11y",), max_steps=500)
    obs, info = env.reset(seed=3)
    driver = Driver(env, obs, info)
    driver.open_app("contacts")
    return driver


def test_collect_reads_every_row_of_a_list_longer_than_the_screen_once_in_order() -> None:
    d = _contacts_driver()
    on_screen = d.texts("contact_name")
    names = sorted(c["name"] for c in d.env.device.get_state()["apps"]["contacts"]["contacts"])
    assert len(names) > len(on_screen)  # the walk has to scroll
    assert d.collect("contact_item", whole=True) == d.collect("contact_name", attr="text", whole=True)
    walked = d.collect("contact_name", attr="text", whole=True)
    assert sorted(walked) == names and len(set(walked)) == len(walked)
    assert d.texts("contact_name") == on_screen  # whole=True leaves the list at its top


def test_collect_from_where_the_list_stands_misses_what_is_above() -> None:
    d = _contacts_driver()
    first = d.texts("contact_name")[0]
    d.scroll(1)
    assert first not in d.collect("contact_name", attr="text")
    d.scroll_to_top()
    assert d.texts("contact_name")[0] == first and not d.scroll(-1)
