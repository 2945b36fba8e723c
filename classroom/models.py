"""The store: teachers (Django users), classes, students, sessions, tables and seats.

Students carry a display name only; no other personal data is kept.
"""

from __future__ import annotations

from datetime import time

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from classroom.join_codes import join_code_generate
from classroom.people.year_groups import YEAR_GROUP_CHOICES


class SchoolClass(models.Model):
    teacher = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="classes"
    )
    name = models.CharField(_("Class name"), max_length=80)
    # Students type it (then tap their name) to practise without a badge, but only while the
    # teacher has it open (until this moment; null: closed). Anyone who reads the board knows
    # it, so a sign-in by code is weaker than a badge (classroom.services.practice_access).
    practice_code = models.CharField(max_length=6, unique=True, default=join_code_generate)
    practice_code_open_until = models.DateTimeField(null=True, blank=True)
    # "Until the end of the school day" on the practice page opens the code until then.
    school_day_ends = models.TimeField(_("The school day ends at"), default=time(16, 0))
    created_at = models.DateTimeField(auto_now_add=True)
    # Set when its owner deleted it: from then on no page, socket or badge finds it, while the
    # task worker removes its sessions and trials in batches (classroom.services.classes).
    deleted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint("teacher", Lower("name"), name="unique_class_name_per_teacher")
        ]

    def __str__(self) -> str:
        return self.name


class ClassShare(models.Model):
    """A class shared with a colleague's account. What each role may do is decided in one
    place, ``classroom.selectors.classes``; sessions a colleague runs belong to the class."""

    class Role(models.TextChoices):
        # Teaches the class too: everything the owner does, except deleting it or sharing it.
        CO_TEACHER = "co_teacher", _("Co-teacher")
        # Stands in for a while: runs sessions and sees results, changes nothing else.
        SUBSTITUTE = "substitute", _("Substitute")

    school_class = models.ForeignKey(SchoolClass, on_delete=models.CASCADE, related_name="shares")
    teacher = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="class_shares"
    )
    role = models.CharField(_("Role"), max_length=12, choices=Role.choices)
    # Who shared it (the class's owner); kept as null if that account goes.
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="class_shares_granted",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["school_class", "teacher"], name="unique_class_share")
        ]

    def __str__(self) -> str:
        return f"{self.school_class} shared with {self.teacher}"


class Student(models.Model):
    school_class = models.ForeignKey(SchoolClass, on_delete=models.CASCADE, related_name="students")
    display_name = models.CharField(max_length=40)
    # Signs the student in from their badge QR code; rotating it retires the old badge.
    token = models.CharField(max_length=43, unique=True)
    token_rotated_at = models.DateTimeField(null=True, blank=True)
    # Per-game options the teacher set for this student, e.g. {"<game slug>": {"refill": 8}};
    # a new seat of theirs in that game starts with them.
    game_options = models.JSONField(default=dict, blank=True)
    # Plays with the colour-vision-safe palette; their trials carry the flag
    # in games where a colour is the stimulus.
    colour_safe = models.BooleanField(_("Colour-vision-safe colours"), default=False)

    class ExtraTime(models.TextChoices):
        # The values are the engines' (games.engine.extra_time) and the trials' mark
        # (``Trial.data["extra_time"]``, classroom.people.extra_time).
        NONE = "", _("No extra time")
        X1_5 = "x1.5", _("Response window ×1.5")  # noqa: RUF001
        X2 = "x2", _("Response window ×2")  # noqa: RUF001
        UNTIMED = "untimed", _("No speed scoring")

    # Their own, longer response window at a table (the others keep the table's); their
    # trials carry it and stay out of the school's norms.
    extra_time = models.CharField(
        _("Extra time"), max_length=8, choices=ExtraTime.choices, default="", blank=True
    )
    # Practice starts with the 20-tap warm-up (``Warmup``); the child or the teacher turns it off.
    practice_warmup = models.BooleanField(_("Warm up before practice"), default=True)
    # Optional: the school's norms compare a child with children of the same year group
    # (``classroom.selectors.verdicts``); blank, the class is the reference.
    year_group = models.CharField(
        _("Year group"), max_length=2, blank=True, default="", choices=YEAR_GROUP_CHOICES
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["display_name", "pk"]
        constraints = [
            models.UniqueConstraint(
                "school_class", Lower("display_name"), name="unique_student_name_per_class"
            )
        ]

    def __str__(self) -> str:
        return self.display_name


class HowToPlaySeen(models.Model):
    """A game whose how-to-play demo a student has been shown on a tablet: their first play
    of it starts with the demo, later ones do not (guests keep this on the tablet)."""

    student = models.ForeignKey(Student, on_delete=models.CASCADE, related_name="how_to_play")
    game = models.CharField(max_length=40)
    seen_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint("student", "game", name="unique_how_to_play_per_game")
        ]

    def __str__(self) -> str:
        return f"{self.student} saw how to play {self.game}"


class PracticeSignIn(models.Model):
    """A tablet signed in for practice: its practice cookie holds this row's token, never
    the student's badge token.

    By badge: the child held the card; it lasts until the badge is rotated or the tablet
    signs out. By class code + name: anyone who read the code could have tapped the name,
    so it lasts only while that code is open, and sees only what it played itself.
    """

    class Via(models.TextChoices):
        BADGE = "badge", _("Badge")
        CODE = "code", _("Class code")

    student = models.ForeignKey(
        "Student", on_delete=models.CASCADE, related_name="practice_sign_ins"
    )
    token = models.CharField(max_length=43, unique=True)
    via = models.CharField(max_length=8, choices=Via.choices)

    class Ended(models.TextChoices):
        CODE_CLOSED = "closed", _("The class code closed")
        CODE_ROTATED = "rotated", _("The class has a new code")
        BADGE_ROTATED = "badge", _("The badge was replaced")
        CLASS_DELETED = "deleted", _("The class was deleted")

    # The class's practice code at sign-in: a new code signs the tablet out.
    practice_code = models.CharField(max_length=6, blank=True, default="")
    # Set when it was signed out from afar, so the tablet is told why (the row goes when it
    # would have expired anyway; "Not me?" deletes it at once).
    ended = models.CharField(max_length=8, choices=Ended.choices, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.student} by {self.via}"


class Assignment(models.Model):
    """Practice a teacher set: a game, a band of levels, an amount, a due date."""

    class Goal(models.TextChoices):
        MINUTES = "minutes", _("Minutes")
        GAMES = "games", _("Games")

    teacher = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="assignments"
    )
    school_class = models.ForeignKey(
        SchoolClass, on_delete=models.CASCADE, related_name="assignments"
    )
    # Null: the whole class.
    student = models.ForeignKey(
        "Student", on_delete=models.CASCADE, null=True, blank=True, related_name="assignments"
    )
    game = models.CharField(max_length=40)
    # Rungs of the game's adaptive ladder (games.engine.staircase), easiest 0; the staircase stays
    # inside them.
    rung_min = models.PositiveSmallIntegerField(default=0)
    rung_max = models.PositiveSmallIntegerField()
    goal_kind = models.CharField(max_length=10, choices=Goal.choices, default=Goal.MINUTES)
    goal = models.PositiveSmallIntegerField()
    due_on = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["due_on", "-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.game} for {self.student or self.school_class}"


class TeacherPreferences(models.Model):
    teacher = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="preferences"
    )
    # Extra words (one per line) a guest nickname may not contain, on top of the built-in list.
    nickname_blocklist = models.TextField(blank=True, default="")

    def __str__(self) -> str:
        return f"preferences of {self.teacher}"


class GameSession(models.Model):
    class Status(models.TextChoices):
        LOBBY = "lobby", _("Lobby")
        RUNNING = "running", _("Running")
        PAUSED = "paused", _("Paused")
        ENDED = "ended", _("Ended")

    class Kind(models.TextChoices):
        CLASS = "class", _("Class session")
        PRACTICE = "practice", _("Practice")

    class Leaderboard(models.TextChoices):
        ALWAYS = "always", _("Always")
        BETWEEN_ROUNDS = "between_rounds", _("Between rounds")
        END = "end", _("Only at the end")
        NEVER = "never", _("Never")

    class Palette(models.TextChoices):
        STANDARD = "standard", _("Standard colours")
        OKABE_ITO = "okabe_ito", _("Colour-vision-safe (Okabe-Ito)")

    teacher = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_sessions"
    )
    # Null for a guest session: students type a nickname instead of picking from a roster.
    school_class = models.ForeignKey(
        SchoolClass,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="game_sessions",
    )
    game = models.CharField(max_length=40)
    settings = models.JSONField(default=dict)
    players_per_table = models.PositiveSmallIntegerField()
    code = models.CharField(max_length=6, unique=True)
    seed = models.BigIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LOBBY)
    lobby_locked = models.BooleanField(default=False)
    # A student practising alone (practice) is a session of one table, never joinable by code.
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.CLASS)
    assignment = models.ForeignKey(
        Assignment, on_delete=models.SET_NULL, null=True, blank=True, related_name="sessions"
    )
    # Each table's level follows its players (games.engine.staircase); always on in practice.
    adaptive = models.BooleanField(_("Adaptive difficulty"), default=False)
    leaderboard = models.CharField(
        _("Show the leaderboard"),
        max_length=16,
        choices=Leaderboard.choices,
        default=Leaderboard.ALWAYS,
    )
    # Off: accuracy-only mode, no points or winners shown.
    scoring = models.BooleanField(_("Keep score"), default=True)
    late_join = models.BooleanField(_("Students may join after the start"), default=True)
    palette = models.CharField(
        _("Colours"), max_length=12, choices=Palette.choices, default=Palette.STANDARD
    )
    # The language of the game's words on the tablets (e.g. colour words on cards).
    language = models.CharField(_("Language of the game"), max_length=10, default="en")
    # A session holds several games (Play again deals a new one on every table): the number
    # of the game its tables play now. Each game has its own Table rows (``Table.game_number``),
    # so the log, the trials and the replay of an earlier game stay as they were.
    game_number = models.PositiveSmallIntegerField(default=1)
    # Sound cues on the tablets (static/js/lib/sound.js): off unless the teacher turns them on.
    sound = models.BooleanField(_("Sound on the tablets"), default=False)
    # The 20-tap warm-up (``Warmup``) before a seat's first game: a practice session takes
    # the student's ``practice_warmup``; a class session has it only when the teacher asks,
    # and then only while its lobby waits, so it never holds a child out of a running game.
    warmup = models.BooleanField(_("Warm-up: 20 taps first"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    # Set when its teacher deleted it (or the retention prune took it): from then on no page,
    # socket or code finds it, while the task worker removes it in short batches
    # (classroom.services.retention).
    deleted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.code

    @property
    def is_guest(self) -> bool:
        return self.school_class_id is None

    @property
    def is_open(self) -> bool:
        return self.status != self.Status.ENDED

    @property
    def is_practice(self) -> bool:
        return self.kind == self.Kind.PRACTICE


class Table(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        RUNNING = "running", _("Playing")
        PAUSED = "paused", _("Paused")
        ENDED = "ended", _("Finished")

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="tables")
    # Which of the session's games this table played (see ``GameSession.game_number``).
    game_number = models.PositiveSmallIntegerField(default=1)
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    # Fixed when play starts: the engine's seats in clockwise order, each
    # {"seat_id": <Seat pk>, "name": ...} or {"bot": <level>, "name": ...}, and the game seed.
    roster = models.JSONField(default=list, blank=True)
    seed = models.BigIntegerField(null=True, blank=True)
    # The game's settings this table plays with, when they are not the session's (an earlier
    # game keeps the settings it was dealt with after Play again changed them): its replay
    # needs them. Null: the session's.
    settings = models.JSONField(null=True, blank=True)
    # The fencing epoch of the process that last took this table over (games.live.leases): a
    # log write carrying an older epoch is refused, so a former owner can never write again.
    epoch = models.PositiveIntegerField(default=0)
    # Where the table's game clock stands (games.live.host.ClockMark), so the next host, after
    # a restart or in another process, continues its timeline instead of going back to the
    # last logged entry: game ms = unix ms - clock_origin_ms, or clock_frozen_ms while paused.
    clock_origin_ms = models.BigIntegerField(null=True, blank=True)
    clock_frozen_ms = models.BigIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["game_number", "number"]
        constraints = [
            models.UniqueConstraint(
                "session", "game_number", "number", name="unique_table_number_per_game"
            )
        ]

    def __str__(self) -> str:
        return f"{self.session.code} table {self.number}"


class Seat(models.Model):
    """A student's place in one session, held by a seat token on their tablet."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="seats")
    table = models.ForeignKey(
        Table, on_delete=models.SET_NULL, null=True, blank=True, related_name="seats"
    )
    student = models.ForeignKey(
        Student, on_delete=models.SET_NULL, null=True, blank=True, related_name="seats"
    )
    name = models.CharField(max_length=40)
    # Case-folded name: two seats of one session may not share it.
    name_key = models.CharField(max_length=80)
    token = models.CharField(max_length=43, unique=True)
    # Set when the teacher moves the seat by hand, so automatic balancing leaves it alone.
    pinned = models.BooleanField(default=False)
    kicked_at = models.DateTimeField(null=True, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)
    last_seen_at = models.DateTimeField(null=True, blank=True)
    # This seat's game options (the game's ``seat_options``), e.g. {"refill": 8}.
    options = models.JSONField(default=dict, blank=True)
    # Its token was last issued to a badge (a scan, or a practice sign-in by badge): a new
    # badge signs that tablet out.
    via_badge = models.BooleanField(default=False)
    # The practice sign-in that started this (practice) seat: a code sign-in sees only the
    # games of its own seats, and they stop when the code closes.
    practice_sign_in = models.ForeignKey(
        PracticeSignIn, on_delete=models.SET_NULL, null=True, blank=True, related_name="seats"
    )
    # The tablet the seat's page last reported; the seat's trials are written with it.
    device = models.ForeignKey(
        "Device", on_delete=models.SET_NULL, null=True, blank=True, related_name="seats"
    )
    # The seat's trial count when the teacher last dismissed its "needs help" mark on the
    # console (``classroom.analytics.needs_help``): only a departure that began later shows.
    help_dismissed_at = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["joined_at", "pk"]
        constraints = [
            models.UniqueConstraint("session", "name_key", name="unique_seat_name"),
            models.UniqueConstraint(
                "session",
                "student",
                condition=models.Q(student__isnull=False),
                name="unique_seat_per_student",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_kicked(self) -> bool:
        return self.kicked_at is not None


class RunFlag(models.Model):
    """A seat's run of a session that did not look like real play
    (``classroom.analytics.validity``), recorded when the session ends: its flags, and
    whether the teacher keeps it. A flagged run stays out of trends and the class's norms
    unless it is kept; a seat with no row had a valid run (or its session has not ended)."""

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="run_flag")
    # Copied from the seat, so trends filter by (student, session) without a join.
    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="+")
    student = models.ForeignKey(
        Student, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    # The validity check keys (``validity.REASONS``), comma-separated, in the checks' order.
    flags = models.CharField(max_length=200)
    kept = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index("student", "session", name="run_flag_student_session")]

    def __str__(self) -> str:
        return f"{self.seat} flagged {self.flags}{' (kept)' if self.kept else ''}"

    @property
    def flag_keys(self) -> list[str]:
        return [flag for flag in self.flags.split(",") if flag]


class Device(models.Model):
    """A kind of tablet as its browser reports it: user agent, screen size in CSS pixels and
    the display's frame interval measured from ``requestAnimationFrame`` (median of the
    deltas, to 0.1 ms). Identical reports share a row, so a class's trials group by device
    (touch latency differs between tablets by tens of ms)."""

    user_agent = models.CharField(max_length=300)
    screen_width = models.PositiveSmallIntegerField()
    screen_height = models.PositiveSmallIntegerField()
    frame_interval_ms = models.DecimalField(max_digits=4, decimal_places=1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                "user_agent",
                "screen_width",
                "screen_height",
                "frame_interval_ms",
                name="unique_device_report",
            )
        ]

    def __str__(self) -> str:
        return f"{self.screen_width} x {self.screen_height} · {self.frame_interval_ms} ms"


class Warmup(models.Model):
    """A seat's simple-reaction warm-up: tap when the card appears, 20 times. Its median RT
    is the child's seeing-and-tapping time on that tablet that day; a game's RT less it is
    the decision time (``classroom.analytics.decision_time``). Skipped: no RTs."""

    seat = models.OneToOneField("Seat", on_delete=models.CASCADE, related_name="warmup")
    device = models.ForeignKey(
        Device, on_delete=models.SET_NULL, null=True, blank=True, related_name="warmups"
    )
    # Each card's RT in ms, in order; null for a card left untapped.
    rts = models.JSONField(default=list)
    # The median of the kept RTs, or null when too few were kept (or it was skipped).
    median_ms = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"warm-up of {self.seat_id}: {self.median_ms} ms"


class SeatDevice(models.Model):
    """A tablet (its device cookie, ``classroom.people.device_cookies``) that held a seat.

    When the teacher removes the seat, its tablets are kept out of the session with it (no
    new nickname, no classmate's name) until the teacher lets the seat back in.
    """

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="devices")
    device_id = models.CharField(max_length=64)
    kicked_at = models.DateTimeField(null=True, blank=True)
    first_seen_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint("seat", "device_id", name="unique_seat_device"),
        ]
        indexes = [models.Index(fields=["device_id"])]

    def __str__(self) -> str:
        return f"{self.seat} on {self.device_id[:6]}"


class SeatConnection(models.Model):
    """One open socket of a seat. A seat with none is shown as disconnected."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="connections")
    channel_name = models.CharField(max_length=200, unique=True)
    # Which server process holds the socket; rows of a process that died are ignored.
    process_id = models.CharField(max_length=32, db_index=True)
    opened_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.seat} via {self.channel_name}"


class ActionLogEntry(models.Model):
    """One accepted input or state-changing timer of a table; replaying them rebuilds it."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="log_entries")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=8)  # "act", "tick" or "bot" (a bot took a seat over)
    seat_index = models.PositiveSmallIntegerField(null=True, blank=True)
    payload = models.JSONField(null=True, blank=True)
    server_ms = models.BigIntegerField()
    # The owner's epoch when written, and the tablet's id for the input (duplicates of an
    # input already in the log are acknowledged, never applied twice).
    epoch = models.PositiveIntegerField(default=0)
    client_id = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "seq"]
        constraints = [
            models.UniqueConstraint("table", "seq", name="unique_log_seq"),
            models.UniqueConstraint(
                "table",
                "client_id",
                condition=~models.Q(client_id=""),
                name="unique_log_client_id",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}#{self.seq} {self.kind}"


class Trial(models.Model):
    """One response opportunity of one student (a flip, a catch …), for analytics."""

    session = models.ForeignKey(GameSession, on_delete=models.CASCADE, related_name="trials")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="trials")
    seat = models.ForeignKey(Seat, on_delete=models.SET_NULL, null=True, related_name="trials")
    # A student taken off the class list leaves their trials behind, linked to no one (the
    # table's other trials and its replay need them); deleting a class or a session deletes
    # its trials outright.
    student = models.ForeignKey(
        Student, on_delete=models.SET_NULL, null=True, blank=True, related_name="trials"
    )
    log_seq = models.PositiveIntegerField()
    game = models.CharField(max_length=40)
    kind = models.CharField(max_length=40)
    level = models.CharField(max_length=20, blank=True)
    # Signal detection: was a response called for, and was there one (hit, miss, false
    # alarm, correct rejection). Null where a game's trial is not a yes/no decision.
    target = models.BooleanField(null=True)
    responded = models.BooleanField(null=True)
    # Stroop: word and ink agree. Null where it does not apply.
    congruent = models.BooleanField(null=True)
    rt_ms = models.PositiveIntegerField(null=True, blank=True)
    correct = models.BooleanField(null=True)
    plausible = models.BooleanField(default=True)
    data = models.JSONField(default=dict)
    # The tablet it was played on (its seat's ``device`` when written). No index of its own:
    # devices are read per session, through the session's trials, and never deleted alone.
    device = models.ForeignKey(
        Device, on_delete=models.SET_NULL, null=True, blank=True, db_index=False, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [
            models.Index(fields=["student", "game", "created_at"]),
            models.Index(fields=["session", "student"]),
            models.Index(fields=["session", "seat"]),
            models.Index(fields=["created_at"]),
            # The progress pages' per-(student, session, kind) aggregates and sorted RTs
            # (``classroom.selectors.analytics``) read every column they use from this index,
            # in its order, without visiting the table (PostgreSQL's index-only scan: a year of
            # a class is 1.2 M trials, each on a different page of the table; SQLite ignores
            # INCLUDE). ``id`` is there for the aggregates' COUNT.
            models.Index(
                fields=["student", "session", "kind"],
                include=[
                    "id",
                    "created_at",
                    "game",
                    "level",
                    "target",
                    "responded",
                    "congruent",
                    "rt_ms",
                    "correct",
                    "plausible",
                ],
                name="trial_student_session_kind",
            ),
            # A tally's earliest time and smallest level, found again in one step when the
            # trial that held it goes (the triggers of migration 0021).
            models.Index(
                fields=["student", "session", "kind", "game", "created_at"],
                name="trial_tally_started",
            ),
            models.Index(
                fields=["student", "session", "kind", "game", "level"], name="trial_tally_level"
            ),
            # The few trials with an adaptive rung, an accommodation or extra time in ``data``
            # (``level_track``, ``student_colour_safe_sessions``,
            # ``student_extra_time_sessions``): without these, finding them means reading
            # every trial of the student (a school year's 40,000 on a progress page).
            models.Index(
                fields=["student", "game", "created_at"],
                condition=models.Q(data__has_key="rung"),
                name="trial_student_rung",
            ),
            models.Index(
                fields=["student", "session"],
                condition=models.Q(data__has_key="accommodation"),
                name="trial_student_accommodation",
            ),
            models.Index(
                fields=["student", "session"],
                condition=models.Q(data__has_key="extra_time"),
                name="trial_student_extra_time",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.seat_id} {self.rt_ms}"


class TrialTally(models.Model):
    """The counts of one student's trials of one kind (and game) in one session, as the
    progress pages' aggregate counts them (``classroom.selectors.analytics``), kept by the
    database itself: triggers on the trials table add every inserted trial to its row and
    take a changed or deleted one out of it (migrations 0016 and 0021), however the trial was
    written; a trial taken out costs the same whatever the size of its row's group.
    A year of a class is 1.2 M trials but 6,000 of these rows, which the class overview, a
    student's sessions and the class's list of games read instead.

    No foreign keys in the database: a row goes when its last trial does (the triggers), so
    deleting a student or a session needs nothing of Django here. A migration that makes
    SQLite rebuild the trials table drops its triggers: it must create them again
    (``tests/classroom/test_trial_tallies.py`` checks they are there).
    """

    student = models.ForeignKey(
        Student, on_delete=models.DO_NOTHING, db_constraint=False, related_name="+"
    )
    session = models.ForeignKey(
        GameSession, on_delete=models.DO_NOTHING, db_constraint=False, related_name="+"
    )
    kind = models.CharField(max_length=40)
    # A session's trials are all of its game; in the key all the same, so a filter by game is
    # exactly the trials' own filter whatever the rows hold.
    game = models.CharField(max_length=40)
    # The earliest time and the smallest level among the trials, as MIN() gives them.
    started = models.DateTimeField()
    level = models.CharField(max_length=20)
    trials = models.PositiveIntegerField()
    correct_count = models.PositiveIntegerField()
    hits = models.PositiveIntegerField()
    misses = models.PositiveIntegerField()
    false_alarms = models.PositiveIntegerField()
    correct_rejections = models.PositiveIntegerField()
    congruent_targets = models.PositiveIntegerField()
    congruent_errors = models.PositiveIntegerField()
    incongruent_targets = models.PositiveIntegerField()
    incongruent_errors = models.PositiveIntegerField()
    # The plausible correct responses at or above the anticipation floor (200 ms): their
    # count and the sum of their RTs, for the session's mean (the trend figure).
    trend_rt_count = models.PositiveIntegerField()
    trend_rt_sum = models.BigIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["student", "session", "kind", "game"], name="unique_trial_tally"
            )
        ]

    def __str__(self) -> str:
        return f"{self.student_id} {self.session_id} {self.kind}: {self.trials}"


class Export(models.Model):
    """A file prepared in the background (``classroom.services.exports``): a session's or a
    class's workbook, a class's printed progress reports, or reports for home (a child's, or
    the class's set), built by a task worker into a
    file of its own, kept for its owner.

    Only its owner sees it; deleting the session or the class deletes it (and the file goes
    with the next tidy-up, ``export_files_tidy``).
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting to start")
        RUNNING = "running", _("Being prepared")
        READY = "ready", _("Ready")
        FAILED = "failed", _("Failed")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="exports"
    )
    # Exactly one of the two: what the file is of.
    session = models.ForeignKey(
        GameSession, on_delete=models.CASCADE, null=True, blank=True, related_name="exports"
    )
    school_class = models.ForeignKey(
        SchoolClass, on_delete=models.CASCADE, null=True, blank=True, related_name="exports"
    )
    kind = models.CharField(max_length=20)
    # A report for home of one child (blank: the whole class's set, a page each).
    student = models.ForeignKey(
        Student, on_delete=models.CASCADE, null=True, blank=True, related_name="exports"
    )
    # The weeks a report for home looks back over (``classroom.reports.home.PERIODS``).
    period = models.CharField(max_length=10, blank=True)
    # The one game a class's printed reports are of (blank: every game it played).
    game = models.CharField(max_length=40, blank=True)
    # Headers and the About sheet are written in the language the teacher asked in.
    language = models.CharField(max_length=10, default="en")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    # Trials written so far, of ``total``, for the progress bar.
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    # The file under settings.EXPORTS_ROOT, once ready; the task's id in the task backend.
    path = models.CharField(max_length=200, blank=True)
    size = models.PositiveBigIntegerField(default=0)
    task_id = models.CharField(max_length=64, blank=True)
    # What went wrong, in words a teacher can read (the traceback goes to the worker's log).
    error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    # The task's last sign of life (each progress step): a worker that died stops moving it.
    updated_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["owner", "kind", "session", "school_class"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(session__isnull=False, school_class__isnull=True)
                | models.Q(session__isnull=True, school_class__isnull=False),
                name="export_of_a_session_or_a_class",
            )
        ]

    def __str__(self) -> str:
        return f"export {self.pk} {self.kind} {self.status}"

    @property
    def is_finished(self) -> bool:
        return self.status in {self.Status.READY, self.Status.FAILED}

    @property
    def percent(self) -> int:
        if self.status == self.Status.READY:
            return 100
        return min(99, 100 * self.done // self.total) if self.total else 0


class Invitation(models.Model):
    """A school admin's invitation to make one teacher account (SIGNUP=invite): its link works
    once, before ``expires_at``, for the address it was made for (``classroom.services.accounts``).

    Only a hash of the link's token is kept, so the table never holds a working link.
    """

    email = models.EmailField()
    token_hash = models.CharField(max_length=64, unique=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"invitation {self.pk} {self.email}"


class AccountAuditEntry(models.Model):
    """One thing done to a teacher's account by a school admin (or that an invitation made),
    for the admin's audit page. Names are copied, so an entry still reads after an account
    goes."""

    class Action(models.TextChoices):
        ADMIN_GRANTED = "admin_granted", _("Made a school admin")
        INVITED = "invited", _("Invited")
        INVITATION_USED = "invitation_used", _("Signed up by invitation")
        DISABLED = "disabled", _("Disabled")
        ENABLED = "enabled", _("Re-enabled")
        PASSWORD_RESET = "password_reset", _("Sent a password reset")

    at = models.DateTimeField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    actor_name = models.CharField(max_length=254)
    action = models.CharField(max_length=20, choices=Action.choices)
    subject = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    subject_name = models.CharField(max_length=254)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor_name} {self.action} {self.subject_name}"
