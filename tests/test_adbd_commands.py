"""The shell commands and intents added for agent tooling, with Android 14's output."""
from __future__ import annotations

import pytest

from mobilegym.adbd.commands.android import SETTINGS_ROUTES
from mobilegym.adbd.shell import Shell
from mobilegym.device.sim import SimDevice
from mobilegym.sim.phone import Phone


@pytest.fixture
def phone() -> Phone:
    return SimDevice(540, 1200, world="canonical")


@pytest.fixture
def sh(phone: Phone):  # noqa: ANN201
    shell = Shell(phone)

    def run(line: str, code: int = 0) -> str:
        result = shell.run(line)
        assert result.code == code, (line, result.stderr)
        return result.stdout.decode()

    run.shell = shell  # type: ignore[attr-defined]
    return run


def test_absolute_paths_of_commands(sh, phone: Phone) -> None:
    assert sh("/system/bin/echo hi") == "hi\n"
    sh("/system/bin/input keyevent HOME; /system/xbin/input tap 10 10")
    assert sh("/system/bin/screencap -p | wc -c").strip().isdigit()
    assert "inaccessible or not found" in sh.shell.run("/sdcard/echo hi").stderr.decode()
    assert sh.shell.run("/system/bin/nope").code == 127


def test_svc(sh, phone: Phone) -> None:
    sh("svc wifi disable")
    assert phone.get_state()["apps"]["settings"]["wifi"] is False
    sh("svc wifi enable")
    assert phone.get_state()["apps"]["settings"]["wifi"] is True
    sh("svc bluetooth enable")
    assert phone.get_state()["apps"]["settings"]["bluetooth"] is True
    sh("svc data disable")
    assert sh("settings get global mobile_data") == "0\n"
    sh("svc power stayon true")
    assert sh("settings get global stay_on_while_plugged_in") == "7\n"
    assert "usage: svc wifi" in sh.shell.run("svc wifi maybe").stderr.decode()
    sh("cmd wifi set-wifi-enabled disabled")
    assert sh("cmd wifi status") == "Wifi is disabled\n"
    sh("cmd connectivity airplane-mode enable")
    assert sh("settings get global airplane_mode_on") == "1\n"


def test_content_query(sh) -> None:
    out = sh("content query --uri content://com.android.contacts/contacts --projection _id:display_name "
             "--where \"display_name LIKE 'a%'\"")
    assert out == "Row: 0 _id=1, display_name=Alice Chen\n"
    phones = sh("content query --uri content://com.android.contacts/data/phones --projection display_name:data1:data2 "
                "--where \"contact_id=1\"")
    assert phones.splitlines() == ["Row: 0 display_name=Alice Chen, data1=+1 415-555-0132, data2=2",
                                   "Row: 1 display_name=Alice Chen, data1=+1 415-555-0190, data2=3"]
    assert sh("content query --uri content://com.android.contacts/contacts --where \"display_name='Nobody'\"") \
        == "No result found.\n"
    sms = sh("content query --uri content://sms/inbox --projection address:body:read --sort 'date DESC'")
    assert sms.startswith("Row: 0 address=72345, body=Harbor Bank: your verification code is 482913.")
    events = sh("content query --uri content://com.android.calendar/events --projection title:calendar_id --where _id=2")
    assert events == "Row: 0 title=Team offsite, calendar_id=1\n"
    assert sh("content query --uri content://settings/global --projection name:value --where \"name='wifi_on'\"") \
        == "Row: 0 name=wifi_on, value=1\n"
    bad = sh.shell.run("content query --uri content://nope")
    assert bad.code == 1 and b"Unknown authority nope" in bad.stderr


def test_content_insert_maps_to_state(sh, phone: Phone) -> None:
    sh("content insert --uri content://com.android.contacts/raw_contacts --bind display_name:s:Zed")
    zed = phone.get_state()["apps"]["contacts"]["contacts"][-1]
    assert zed["name"] == "Zed"
    raw_id = sh("content query --uri content://com.android.contacts/raw_contacts --projection _id "
                "--where \"display_name='Zed'\"").split("=")[1].strip()
    sh(f"content insert --uri content://com.android.contacts/data --bind raw_contact_id:i:{raw_id} "
       "--bind mimetype:s:vnd.android.cursor.item/phone_v2 --bind data1:s:555-0101 --bind data2:i:2")
    assert phone.get_state()["apps"]["contacts"]["contacts"][-1]["phones"] == [{"type": "mobile", "number": "555-0101"}]
    sh("content insert --uri content://sms --bind address:s:555-0101 --bind body:s:hello --bind type:i:1")
    conv = phone.get_state()["apps"]["messages"]["conversations"][-1]
    assert conv["address"] == "555-0101" and conv["messages"][-1]["text"] == "hello" and conv["unread"] == 1
    sh("content insert --uri content://com.android.calendar/events --bind title:s:Party --bind calendar_id:i:2 "
       "--bind dtstart:l:1773680400000 --bind dtend:l:1773684000000")
    event = phone.get_state()["apps"]["calendar"]["events"][-1]
    assert (event["title"], event["date"], event["start"], event["end"], event["calendar"]) == \
        ("Party", "2026-03-16", "17:00", "18:00", "Personal")
    sh("content insert --uri content://settings/system --bind name:s:screen_brightness --bind value:i:255")
    assert phone.get_state()["apps"]["settings"]["brightness"] == 100
    sh("content delete --uri content://com.android.calendar/events --where \"title='Party'\"")
    assert all(e["title"] != "Party" for e in phone.get_state()["apps"]["calendar"]["events"])
    for app in ("contacts", "messages", "calendar"):  # the app still renders what was written
        phone.open_app(app)
        phone.screenshot()


def test_logcat(sh) -> None:
    sh("logcat -c")
    sh("am start -a android.settings.WIFI_SETTINGS")
    out = sh("logcat -d")
    assert out.startswith("--------- beginning of main\n")
    assert "I ActivityTaskManager: START u0 {act=android.settings.WIFI_SETTINGS cmp=com.mobilegym.settings/" in out
    assert sh("logcat -d -s WifiService") == "--------- beginning of main\n"
    assert sh("logcat -d -t 1 -v brief").count("\n") == 2
    sh("logcat -c")
    assert sh("logcat -d") == "--------- beginning of main\n"


def test_ps_and_pidof(sh) -> None:
    sh("monkey -p com.mobilegym.clock 1")
    ps = sh("ps -A")
    assert ps.splitlines()[0].split()[:4] == ["USER", "PID", "PPID", "VSZ"]
    assert any(line.endswith(" com.mobilegym.clock") for line in ps.splitlines())
    pid = sh("pidof com.mobilegym.clock").strip()
    assert pid.isdigit() and f" {pid} " in ps
    assert sh.shell.run("pidof com.mobilegym.nothing").code == 1
    assert "system_server" in sh("ps -A | grep system_server")


def test_cut_which_uname_df(sh) -> None:
    assert sh("echo a:b:c:d | cut -d: -f2,4") == "b:d\n"
    assert sh("echo abcdef | cut -c2-3") == "bc\n"
    assert sh("echo 'x y' | cut -f1 -d ' '") == "x\n"
    assert sh("which ls input") == "/system/bin/ls\n/system/bin/input\n"
    assert sh.shell.run("which nothing").code == 1
    assert sh("command -v screencap") == "/system/bin/screencap\n"
    assert sh("uname") == "Linux\n"
    assert sh("uname -a").startswith("Linux localhost 5.15.")
    assert sh("uname -m") == "x86_64\n"
    df = sh("df /sdcard").splitlines()
    assert df[0].split()[:2] == ["Filesystem", "1K-blocks"] and df[1].endswith("/storage/emulated")
    assert "Size" in sh("df -h")


def test_dumpsys_package(sh) -> None:
    out = sh("dumpsys package com.mobilegym.clock")
    assert "Package [com.mobilegym.clock]" in out and "versionName=14" in out and "versionCode=34" in out
    assert "firstInstallTime=2026-01-01 00:00:00" in out and "PackageSignatures{" in out
    assert "Unable to find package" in sh("dumpsys package com.nope")


@pytest.mark.parametrize("action,route", sorted(SETTINGS_ROUTES.items()))
def test_settings_intents_open_their_screen(sh, phone: Phone, action: str, route: str) -> None:
    sh(f"am start -a {action}")
    assert (phone.current_app(), phone.current_route()) == ("settings", route)


@pytest.mark.parametrize("line,app,route", [
    ("am start -a android.intent.action.SHOW_ALARMS", "clock", "/alarms"),
    ("am start -a android.intent.action.SET_TIMER", "clock", "/timer"),
    ("am start -a android.intent.action.MAIN -c android.intent.category.APP_CONTACTS", "contacts", "/"),
    ("am start -a android.intent.action.SENDTO -d sms:5550101", "messages", "/compose?to=5550101"),
    ("am start -a android.settings.LOCATION_SOURCE_SETTINGS", "settings", "/"),
])
def test_other_intents(sh, phone: Phone, line: str, app: str, route: str) -> None:
    sh(line)
    assert (phone.current_app(), phone.current_route()) == (app, route)


def test_unresolvable_intent(sh) -> None:
    result = sh.shell.run("am start -a com.example.NOTHING")
    assert result.code == 1 and b"unable to resolve Intent" in result.stderr
    assert "Broadcast completed: result=0" in sh("am broadcast -a android.intent.action.AIRPLANE_MODE --ez state true")


def test_ls_recursive(sh, phone: Phone) -> None:
    phone.files.write("/sdcard/Download/a/b/c.txt", b"x", make_parents=True)
    out = sh("ls -R /sdcard/Download")
    assert out == "/sdcard/Download:\na\n\n/sdcard/Download/a:\nb\n\n/sdcard/Download/a/b:\nc.txt\n"
    assert sh("cd /sdcard; ls -R Download/a") == "Download/a:\nb\n\nDownload/a/b:\nc.txt\n"


def test_system_is_read_only(sh) -> None:
    for line in ("echo x > /system/x", "touch /system/bin/x", "mkdir /system/d", "rm /system/bin", "echo x > /x"):
        result = sh.shell.run(line)
        assert result.code == 1 and b"Read-only file system" in result.stderr, line
    assert sh("echo ok > /data/local/tmp/x; cat /data/local/tmp/x") == "ok\n"


def test_grep_features(sh, phone: Phone) -> None:
    phone.files.write("/sdcard/g.txt", b"alpha\nbeta\ngamma\nALPHA beta\n")
    assert sh("grep -i alpha /sdcard/g.txt") == "alpha\nALPHA beta\n"
    assert sh("grep 'a\\|e' /sdcard/g.txt | wc -l").strip() == "4"
    assert sh("grep -E 'ga(m)+a' /sdcard/g.txt") == "gamma\n"
    assert sh("grep -e beta -e gamma -c /sdcard/g.txt") == "3\n"
    assert sh("grep -x beta /sdcard/g.txt") == "beta\n"
    assert sh("grep -F 'a.p' /sdcard/g.txt", code=1) == ""
    assert sh("grep -r gamma /sdcard") == "/sdcard/g.txt:gamma\n"
    assert sh("grep -E '[[:upper:]]+' /sdcard/g.txt") == "ALPHA beta\n"
