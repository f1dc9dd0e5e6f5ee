"""Music tasks.

Task index:
    LikeSong                operate  L2  add a song to Liked Songs
    CreatePlaylist          operate  L2  create a playlist with a given name
    RenamePlaylist          operate  L2  rename a playlist
    DeletePlaylist          operate  L2  delete a playlist (confirm dialog)
    AddSongToPlaylist       operate  L2  add a song to a playlist
    RemoveSongFromPlaylist  operate  L2  remove one song from a playlist
    PlaySong                operate  L2  start playing a song
    SetPlaybackModes        operate  L2  set shuffle and repeat in the player
    NowPlayingSong          query    L1  the song and artist loaded in the player
    AlbumSongCount          query    L1  how many songs an album has
    LongestSongByArtist     query    L3  the artist's longest song
    LikeAlbumAndCount       hybrid   L3  like every song of an album, report the Liked Songs count
    ArtistPlaylist          operate  L4  a new playlist holding exactly an artist's songs
    AlbumLengthTimer        operate  L3  cross-app: a Clock timer running for an album's length
    AddRecommendedSong      operate  L3  cross-app: add the song a contact texted about to a playlist
    LikeRecommendedTellAlbum operate L3  cross-app: like the song a contact texted about, reply with its album
    ForumSongToPlaylist     operate  L4  cross-app: add the song a Forum post recommends to a playlist, text its artist
"""
from __future__ import annotations

import datetime as dt
import re

from mobilegym.envs.forum import feed
from mobilegym.judge import AnswerTask, BaseTask, CriteriaTask, build_answer_checks, copy_state, sim_datetime
from mobilegym.judge.result import check

from ..clock.app import CLOCK_TIMER_CHANGES, Clock
from ..contacts.app import Contacts
from ..l10n import localised
from ..messages.app import MESSAGES_READ_CHANGES, MESSAGES_SEND_CHANGES, Messages, text_from_contact
from .app import (ALBUM_LENGTH_TOLERANCE_S, MIN_ALBUM_RIVALS, MIN_TRIBUTE_SONGS, MUSIC_ADD_TO_PLAYLIST_CHANGES,
                  MUSIC_LIKE_CHANGES, MUSIC_LIKE_MANY_CHANGES, MUSIC_NEW_PLAYLIST_CHANGES, MUSIC_PLAYER_CHANGES,
                  MUSIC_REMOVE_FROM_PLAYLIST_CHANGES, Music)


class LikeSong(BaseTask):
    """Verdict: Liked Songs holds exactly the initial songs plus the requested one."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["search", "toggle"]
    templates = {"en": ["Like the song '{song.title}' by {song.artist} in Music",
                        "Add '{song.title}' by {song.artist} to my Liked Songs"],
                 "zh": ["在音乐里把{song.artist}的《{song.title}》标记为喜欢"]}
    parameters = {"song": {"sampler": Music.sample_unliked_song}}
    expected_changes = MUSIC_LIKE_CHANGES

    def check_goals(self, input):
        music = Music(input.apps["music"])
        expected = [*Music(input.apps_init["music"]).liked(), self.p.song["id"]]
        return [music.check_song_set("liked songs", expected, music.liked())]


class CreatePlaylist(CriteriaTask):
    """Verdict: a playlist with exactly the requested name exists (no playlist has it at the start)."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["form-filling"]
    templates = {"en": ["Create a new playlist called '{name}' in Music", "Make me an empty Music playlist named '{name}'"],
                 "zh": ["在音乐里新建一个名为“{name}”的歌单"]}
    parameters = {"name": {"sampler": Music.sample_new_playlist_name}}
    criteria = {".playlists[name={name}].name": "{name}"}
    expected_changes = MUSIC_NEW_PLAYLIST_CHANGES


class RenamePlaylist(CriteriaTask):
    """Verdict: the same playlist (by id) now carries the new name."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["form-filling", "editing"]
    templates = {"en": ["Rename my '{playlist.name}' playlist to '{new_name}'",
                        "Change the name of the Music playlist '{playlist.name}' to '{new_name}'"],
                 "zh": ["把歌单“{playlist.name}”改名为“{new_name}”"]}
    parameters = {"playlist": {"source": ".playlists", "fields": ["id", "name"]},
                  "new_name": {"sampler": Music.sample_playlist_name}}
    criteria = {".playlists[id={playlist.id}].name": "{new_name}"}


class DeletePlaylist(CriteriaTask):
    """Verdict: the playlist is gone."""

    objective = "operate"
    difficulty = "L2"
    high_risk = True
    capabilities = ["deletion", "confirmation-dialog"]
    templates = {"en": ["Delete my '{playlist.name}' playlist",
                        "I don't need the '{playlist.name}' playlist anymore, remove it"],
                 "zh": ["删除歌单“{playlist.name}”"]}
    parameters = {"playlist": {"source": ".playlists", "fields": ["id", "name"]}}
    criteria = {".playlists[id={playlist.id}]": None}


class AddSongToPlaylist(BaseTask):
    """Verdict: the playlist holds its initial songs plus the requested one."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["search", "list-management"]
    templates = {"en": ["Add '{song.title}' by {song.artist} to my '{playlist.name}' playlist",
                        "Put {song.artist}'s '{song.title}' on the '{playlist.name}' playlist"],
                 "zh": ["把{song.artist}的《{song.title}》加到歌单“{playlist.name}”里"]}
    parameters = {"playlist": {"sampler": Music.sample_playlist},
                  "song": {"sampler": Music.sample_song_not_in_playlist}}
    expected_changes = MUSIC_ADD_TO_PLAYLIST_CHANGES

    def check_goals(self, input):
        return [Music(input.apps["music"]).check_playlist_songs(Music(input.apps_init["music"]), self.p.playlist,
                                                                added=(self.p.song["id"],))]


class RemoveSongFromPlaylist(BaseTask):
    """Verdict: the playlist holds its initial songs minus the requested one."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["list-management", "deletion"]
    templates = {"en": ["Take '{song.title}' off my '{playlist.name}' playlist",
                        "Remove the song '{song.title}' from the Music playlist '{playlist.name}'"],
                 "zh": ["把《{song.title}》从歌单“{playlist.name}”中移除"]}
    parameters = {"playlist": {"sampler": Music.sample_playlist},
                  "song": {"sampler": Music.sample_song_in_playlist}}
    expected_changes = MUSIC_REMOVE_FROM_PLAYLIST_CHANGES

    def check_goals(self, input):
        return [Music(input.apps["music"]).check_playlist_songs(Music(input.apps_init["music"]), self.p.playlist,
                                                                removed=(self.p.song["id"],))]


class PlaySong(BaseTask):
    """Verdict: at judging time the player is playing the requested song."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["search", "media-control"]
    templates = {"en": ["Play '{song.title}' by {song.artist}", "Put on {song.artist}'s song '{song.title}'"],
                 "zh": ["播放{song.artist}的《{song.title}》"]}
    parameters = {"song": {"sampler": Music.sample_song_not_playing}}
    expected_changes = MUSIC_PLAYER_CHANGES

    def check_goals(self, input):
        music = Music(input.apps["music"])
        song_id, playing = music.now_playing(input.os["time_ms"])
        actual = f"{music.song(song_id)['title']} ({'playing' if playing else 'paused'})" if song_id else "nothing loaded"
        return [check("now playing", f"{self.p.song['title']} (playing)", actual,
                      song_id == self.p.song["id"] and playing)]


@localised(zh={"labels": {"shuffle": {True: "打开", False: "关闭"},
                          "repeat": {"all": "列表循环", "one": "单曲循环", "off": "循环关闭"}}})
class SetPlaybackModes(CriteriaTask):
    """Verdict: shuffle and repeat are both as requested.
    Injection: each starts in another state."""

    objective = "operate"
    difficulty = "L2"
    capabilities = ["toggle", "media-control"]
    templates = {"en": ["In the Music player, turn shuffle {shuffle} and set the repeat mode to '{repeat}'",
                        "Set Music to shuffle {shuffle}, with '{repeat}'"],
                 "zh": ["在音乐播放器里{shuffle}随机播放，并把循环模式设为“{repeat}”",
                        "把音乐的随机播放{shuffle}，循环模式改成“{repeat}”"]}
    parameters = {"shuffle": {"type": "bool", "values": {"on": True, "off": False}},
                  "repeat": {"type": "enum", "values": {"Repeat all": "all", "Repeat one": "one", "Repeat off": "off"}}}
    criteria = {".player.shuffle": "{shuffle}", ".player.repeat": "{repeat}"}
    expected_changes = MUSIC_PLAYER_CHANGES

    def inject(self, device) -> None:
        modes = ("off", "all", "one")
        other = modes[(modes.index(self.p.repeat) + 1) % len(modes)]
        device.set_state(Music.prepare_state_with_modes(copy_state(device)["apps"]["music"], not self.p.shuffle, other))


@localised(zh={"fields": [{"label": "歌曲名", "hint": "例如 晴天"}, {"label": "歌手", "hint": "例如 周杰伦"}]})
class NowPlayingSong(AnswerTask):
    """Verdict: the answer names the song loaded in the player and its artist.
    Injection: a sampled song is loaded (paused) so the answer varies with the seed."""

    objective = "query"
    difficulty = "L1"
    capabilities = ["information-retrieval"]
    templates = {"en": ["Which song is loaded in the Music player right now, and who is it by?",
                        "What's the current song in Music? Tell me the title and the artist."],
                 "zh": ["音乐播放器里现在是哪首歌？歌手是谁？"]}
    parameters = {"song": {"sampler": Music.sample_any_song}, "position_s": {"type": "int", "min": 10, "max": 170}}
    answer = {"title": ".songs[id={song.id}].title", "artist": "{song.artist}"}
    answer_fields = [{"type": "text", "label": "Song title", "hint": "e.g. Yellow"},
                     {"type": "text", "label": "Artist", "hint": "e.g. Coldplay"}]

    def inject(self, device) -> None:
        device.set_state(Music.prepare_state_with_loaded_song(copy_state(device)["apps"]["music"], self.p.song["id"],
                                                              self.p.position_s * 1000))


@localised(zh={"fields": [{"label": "歌曲数量"}]})
class AlbumSongCount(AnswerTask):
    """Verdict: the answer is the number of songs on the album (sampled among artists with several
    albums, so the album's songs must be told apart from the artist's)."""

    objective = "query"
    difficulty = "L1"
    capabilities = ["counting"]
    templates = {"en": ["How many songs are on the album '{album.title}' by {album.artist}?",
                        "Count the tracks on {album.artist}'s album '{album.title}'"],
                 "zh": ["{album.artist}的专辑《{album.title}》有几首歌？"]}
    parameters = {"album": {"sampler": Music.sample_album_of_prolific_artist}}
    answer = staticmethod(lambda task, apps_init: len(Music(apps_init["music"]).album_songs(task.p.album["id"])))
    answer_fields = [{"type": "number", "label": "Number of songs"}]


@localised(zh={"fields": [{"label": "歌曲名", "hint": "例如 晴天"}]})
class LongestSongByArtist(AnswerTask):
    """Verdict: the answer names the artist's longest song (sampled so it is unique)."""

    objective = "query"
    difficulty = "L3"
    composition = "aggregate"
    capabilities = ["comparison", "information-retrieval"]
    templates = {"en": ["Which song by {artist.name} in my Music library is the longest?",
                        "Of all the {artist.name} songs I have, which one runs the longest?",
                        "Find {artist.name}'s longest track in Music and tell me its title"],
                 "zh": ["我音乐库里{artist.name}最长的是哪首歌？"]}
    parameters = {"artist": {"sampler": Music.sample_artist_with_unique_longest}}
    answer_fields = [{"type": "text", "label": "Song title", "hint": "e.g. Yellow"}]

    def distractors(self, apps, os_state):
        music = Music(apps["music"])
        longest = max(s["duration_s"] for s in music.artist_songs(self.p.artist["id"]))
        return {"other songs by the artist": (len(music.artist_songs(self.p.artist["id"])) - 1, 2),
                "longer songs by other artists": (sum(s["duration_s"] > longest for s in apps["music"]["songs"]), 1)}

    def get_answer(self, input):
        songs = Music(input.apps_init["music"]).artist_songs(self.p.artist["id"])
        return max(songs, key=lambda s: s["duration_s"])["title"]


@localised(zh={"fields": [{"label": "“我喜欢的音乐”中的歌曲数"}]})
class LikeAlbumAndCount(BaseTask):
    """Verdict: every song of the album is liked, no initially liked song was unliked, and the answer
    is how many songs Liked Songs then holds (the album has at least two songs not liked yet)."""

    objective = "hybrid"
    difficulty = "L3"
    composition = "sequential"
    capabilities = ["toggle", "counting"]
    templates = {"en": ["Like every song on the album '{album.title}' by {album.artist}, then tell me how many songs "
                        "are in my Liked Songs",
                        "I love '{album.title}': make sure all its songs are liked, and tell me my Liked Songs count "
                        "afterwards",
                        "Add all of {album.artist}'s '{album.title}' to Liked Songs (keep the ones already there) and "
                        "report how many liked songs I have now"],
                 "zh": ["把{album.artist}的专辑《{album.title}》里的每首歌都标为喜欢，然后告诉我“我喜欢的音乐”里一共有几首歌"]}
    parameters = {"album": {"sampler": Music.sample_album_with_unliked_songs}}
    expected_changes = MUSIC_LIKE_MANY_CHANGES
    answer_fields = [{"type": "number", "label": "Songs in Liked Songs"}]

    def distractors(self, apps, os_state):
        music = Music(apps["music"])
        album = {s["id"] for s in music.album_songs(self.p.album["id"])}
        return {"unliked songs on the album": (len(album - set(music.liked())), 2),
                "liked songs on other albums": (len(set(music.liked()) - album), 1)}

    def check_goals(self, input):
        before = Music(input.apps_init["music"])
        expected = list(dict.fromkeys([*before.liked(), *(s["id"] for s in before.album_songs(self.p.album["id"]))]))
        music = Music(input.apps["music"])
        return [music.check_song_set("liked songs", expected, music.liked()),
                *build_answer_checks(len(expected), input.answer, field="liked_count")]


class ArtistPlaylist(BaseTask):
    """Verdict: a new playlist with the requested name holds exactly the artist's songs. Injection: another
    artist's album is named as a tribute to the artist, when no other artist's song names them."""

    objective = "operate"
    difficulty = "L4"
    composition = "aggregate"
    capabilities = ["form-filling", "filtering", "list-management"]
    templates = {"en": ["Create a playlist called '{name}' with every {artist.name} song in my library, and nothing else",
                        "Make a new playlist named '{name}' that has all of {artist.name}'s songs",
                        "I want all my {artist.name} tracks in one place: put them in a new playlist '{name}'"],
                 "zh": ["新建一个名为“{name}”的歌单，把音乐库里{artist.name}的所有歌曲都放进去，不要加别的"]}
    parameters = {"artist": {"source": ".artists", "fields": ["id", "name"]},
                  "name": {"sampler": Music.sample_new_playlist_name}}
    expected_changes = MUSIC_NEW_PLAYLIST_CHANGES

    def inject(self, device) -> None:
        doc = copy_state(device)
        if patch := Music.prepare_state_with_tribute_album(doc["apps"]["music"], self.p.artist["id"],
                                                           doc["os"].get("language", "en"), self.rng):
            device.set_state(patch)

    def distractors(self, apps, os_state):
        music = Music(apps["music"])
        return {"songs by the artist": (len(music.artist_songs(self.p.artist["id"])), 2),
                "other artists' songs named after them": (len(music.tribute_songs(self.p.artist["id"])),
                                                          MIN_TRIBUTE_SONGS)}

    def check_goals(self, input):
        music = Music(input.apps["music"])
        created = music.playlist_named(self.p.name)
        expected = [s["id"] for s in Music(input.apps_init["music"]).artist_songs(self.p.artist["id"])]
        return [check("playlist exists", self.p.name, created["name"] if created else "missing", created is not None),
                music.check_song_set(f"songs of {self.p.name}", expected, created["song_ids"] if created else None)]


class AlbumLengthTimer(BaseTask):
    """Verdict: the Clock timer is running and was set to the album's total length (within a minute,
    so rounding to whole minutes is fine). Sampled among albums more than a minute from every other in
    length, so another album's timer cannot pass, with another album of the artist or of a near length."""

    scope = "cross-app"
    related_apps = ["music", "clock"]
    objective = "operate"
    difficulty = "L3"
    composition = "sequential"
    capabilities = ["information-retrieval", "cross-app-transfer", "form-filling"]
    templates = {"en": ["I'm going to listen to '{album.title}' by {album.artist} from start to finish. Start a timer "
                        "in Clock that runs for the album's length.",
                        "Set and start a Clock timer as long as the album '{album.title}'"],
                 "zh": ["我要完整听一遍{album.artist}的专辑《{album.title}》，在时钟里开一个和专辑时长一样的计时器"]}
    parameters = {"album": {"sampler": Music.sample_album_of_distinct_length}}
    expected_changes = CLOCK_TIMER_CHANGES

    def distractors(self, apps, os_state):
        music = Music(apps["music"])
        return {"songs on the album to add up": (len(music.album_songs(self.p.album["id"])), 2),
                "albums by the artist or of a near length": (len(music.album_rivals(self.p.album["id"])),
                                                            MIN_ALBUM_RIVALS)}

    def check_goals(self, input):
        length = Music(input.apps_init["music"]).album_length_s(self.p.album["id"])
        timer = Clock(input.apps["clock"]).require(".timer")
        ok = timer["running"] and abs(timer["duration_s"] - length) <= ALBUM_LENGTH_TOLERANCE_S
        return [check("timer", f"running, {length // 60} min {length % 60} s (±{ALBUM_LENGTH_TOLERANCE_S} s)",
                      f"{'running' if timer['running'] else 'stopped'}, "
                      f"{timer['duration_s'] // 60} min {timer['duration_s'] % 60} s", ok)]


class AddRecommendedSong(BaseTask):
    """Verdict: the playlist holds its initial songs plus the one the contact recommended.
    Injection: an unread text from the contact's first number recommends a song not in the playlist."""

    scope = "cross-app"
    related_apps = ["music", "messages", "contacts"]
    objective = "operate"
    difficulty = "L3"
    composition = "sequential"
    capabilities = ["information-retrieval", "cross-app-transfer", "list-management"]
    templates = {"en": ["{name} texted me a song recommendation. Add that song to my '{playlist.name}' playlist.",
                        "Check what song {name} recommended in Messages and put it on my '{playlist.name}' playlist"],
                 "zh": ["{name}发短信给我推荐了一首歌，把它加到我的歌单“{playlist.name}”里"]}
    parameters = {"name": {"source": "contacts:.contacts[*].name"}, "playlist": {"sampler": Music.sample_playlist},
                  "song": {"sampler": Music.sample_song_not_in_playlist}}
    expected_changes = [*MUSIC_ADD_TO_PLAYLIST_CHANGES, *MESSAGES_READ_CHANGES]

    def distractors(self, apps, os_state):
        return {"songs already on the playlist": (len(Music(apps["music"]).playlist(self.p.playlist["id"])["song_ids"]), 1),
                "other playlists": (len(apps["music"]["playlists"]) - 1, 1)}

    def inject(self, device) -> None:
        text_from_contact(device, self.p.name, f"rec_{self.p.song['id']}",
                          lambda language: Music.recommendation_text(self.p.song, language))

    def check_goals(self, input):
        return [Music(input.apps["music"]).check_playlist_songs(Music(input.apps_init["music"]), self.p.playlist,
                                                                added=(self.p.song["id"],))]


REWORDED = re.compile(r"\b(Rain|Snow|Thunderstorm|Shower)\b|\d[:°]")  # words a reply may fairly reword


def sample_recommendable_song(rng, state):
    """An unliked song with a title no other song has, neither its title nor its album's held in the other (an
    album title with no word a reply may fairly reword), as
    {id, title, artist, album, others} (others: every other album's title)."""
    albums = {a["id"]: a["title"] for a in state["albums"]}
    titles = [x["title"] for x in state["songs"]]

    def ok(song):
        album, title = albums[song["album_id"]].casefold(), song["title"].casefold()
        return (song["id"] not in state["liked"] and titles.count(song["title"]) == 1
                and album not in title and title not in album and not REWORDED.search(albums[song["album_id"]]))

    pool = [x for x in state["songs"] if ok(x)]
    if not pool:
        raise ValueError("music: no song to recommend")
    song = rng.choice(pool)
    return {**Music._song_ref(state, song), "album": albums[song["album_id"]],
            "others": [t for aid, t in albums.items() if aid != song["album_id"]]}


class LikeRecommendedTellAlbum(BaseTask):
    """Verdict: the song the contact recommended is in Liked Songs (no other song liked or unliked), and a text to
    the contact names its album and no other album. Injection: an unread text from the contact's first number
    recommends the song."""

    scope = "cross-app"
    related_apps = ["music", "messages", "contacts"]
    objective = "operate"
    difficulty = "L3"
    high_risk = True
    composition = "sequential"
    capabilities = ["information-retrieval", "cross-app-transfer", "toggle", "messaging"]
    templates = {"en": ["{name} texted me a song recommendation. Like that song in Music, then text {name} back the "
                        "name of the album it is on.",
                        "Add the song {name} recommended in Messages to my Liked Songs and reply to {name} with the "
                        "album it comes from"],
                 "zh": ["{name}发短信给我推荐了一首歌。在音乐里把它加到“我喜欢”，然后回短信告诉{name}这首歌收录在哪张专辑里"]}
    parameters = {"name": {"source": "contacts:.contacts[*].name"}, "song": {"sampler": sample_recommendable_song}}
    expected_changes = [*MUSIC_LIKE_CHANGES, *MESSAGES_SEND_CHANGES, *MESSAGES_READ_CHANGES]

    def distractors(self, apps, os_state):
        music = Music(apps["music"])
        return {"other albums": (len(self.p.song["others"]), 2),
                "other songs on its album": (len(music.album_songs(music.song(self.p.song["id"])["album_id"])) - 1, 1)}

    def inject(self, device) -> None:
        text_from_contact(device, self.p.name, f"rec_{self.p.song['id']}",
                          lambda language: Music.recommendation_text(self.p.song, language))

    def check_goals(self, input):
        music, init = Music(input.apps["music"]), Music(input.apps_init["music"])
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        return [music.check_song_set("Liked Songs", sorted([*init.liked(), self.p.song["id"]]), sorted(music.liked())),
                *messages.check_sent_facts(self.p.name, numbers, {"album": self.p.song["album"]},
                                           rivals={"album": self.p.song["others"]})]


FORUM_SONG_POST = {"en": ("Song of the week", 'Can\'t stop listening to "{title}" lately. Give it a spin!'),
                   "zh": ("本周单曲推荐", "最近一直在听《{title}》，推荐大家听听！")}


def sample_forum_song(rng, state, params):
    """A song missing from the sampled ``playlist``, with a title no other song has and that does not hold its
    artist's name (a name with no word a reply may fairly reword), as {id, title, artist, others} (others: every
    other artist's name)."""
    members = next(p for p in state["playlists"] if p["id"] == params["playlist"]["id"])["song_ids"]
    artists = {a["id"]: a["name"] for a in state["artists"]}
    titles = [x["title"] for x in state["songs"]]
    pool = [x for x in state["songs"] if x["id"] not in members and titles.count(x["title"]) == 1
            and artists[x["artist_id"]].casefold() not in x["title"].casefold()
            and not REWORDED.search(artists[x["artist_id"]])]
    if not pool:
        raise ValueError("music: no song for a Forum post")
    song = rng.choice(pool)
    return {**Music._song_ref(state, song), "others": [n for aid, n in artists.items() if aid != song["artist_id"]]}


def prepare_forum_song_post(forum: dict, community_id: str, song: dict, language: str, now) -> dict:
    """A patch putting a post (ten minutes old, so the community's newest) that recommends the song by its title
    alone first in the posts."""
    title, body = FORUM_SONG_POST[language]
    post = {"id": "p_song_tip", "community_id": community_id, "author_id": forum["users"][0]["id"], "title": title,
            "body": body.format(title=song["title"]), "score": 19, "vote": 0, "saved": False,
            "created": (now - dt.timedelta(minutes=10)).isoformat(timespec="minutes"), "comments": []}
    return {"apps": {"forum": {"posts": [post, *forum["posts"]]}}}


class ForumSongToPlaylist(BaseTask):
    """Verdict: the playlist holds its initial songs plus the one the Forum post recommends, and a text to the
    contact names the song's artist and no other artist. Injection: the community's newest post, naming the song
    by its title alone."""

    scope = "cross-app"
    related_apps = ["forum", "music", "contacts", "messages"]
    objective = "operate"
    difficulty = "L4"
    high_risk = True
    composition = "sequential"
    capabilities = ["information-retrieval", "cross-app-transfer", "list-management", "messaging"]
    templates = {"en": ["The newest post in {community.name} on Forum recommends a song. Add it to my "
                        "'{playlist.name}' playlist in Music, then text {name} who the artist is.",
                        "Someone in the {community.name} community on Forum just recommended a song: put it on my "
                        "'{playlist.name}' playlist and send {name} a message naming its artist"],
                 "zh": ["论坛“{community.name}”里最新的一篇帖子推荐了一首歌。在音乐里把它加到我的歌单“{playlist.name}”，"
                        "然后发短信告诉{name}这首歌的歌手是谁"]}
    parameters = {"playlist": {"sampler": Music.sample_playlist}, "song": {"sampler": sample_forum_song},
                  "community": {"source": "forum:.communities[*]", "fields": ["id", "name"]},
                  "name": {"source": "contacts:.contacts[*].name"}}
    expected_changes = [*MUSIC_ADD_TO_PLAYLIST_CHANGES, *MESSAGES_SEND_CHANGES]

    def distractors(self, apps, os_state):
        posts = feed.community_posts(apps["forum"], self.p.community["id"])
        return {"other artists": (len(self.p.song["others"]), 2), "older posts in the community": (len(posts) - 1, 2),
                "other playlists": (len(apps["music"]["playlists"]) - 1, 1)}

    def inject(self, device) -> None:
        state = copy_state(device)
        device.set_state(prepare_forum_song_post(state["apps"]["forum"], self.p.community["id"], self.p.song,
                                                 state["os"].get("language", "en"), sim_datetime(state["os"])))

    def check_goals(self, input):
        numbers = [p["number"] for p in Contacts(input.apps_init["contacts"]).contact(self.p.name)["phones"]]
        messages = Messages(input.apps["messages"], init=input.apps_init["messages"])
        return [Music(input.apps["music"]).check_playlist_songs(Music(input.apps_init["music"]), self.p.playlist,
                                                                added=(self.p.song["id"],)),
                *messages.check_sent_facts(self.p.name, numbers, {"artist": self.p.song["artist"]},
                                           rivals={"artist": self.p.song["others"]})]
