"""The games app's tables, and the rule sets the site ships with.

Made by makemigrations from the models, followed by the only data a new database
needs from the migrations it replaces: their other data steps rewrote existing
rows (players' name keys, shown ratings) and have nothing to do on an empty
database. `replaces` lists those migrations, so a database that applied all of
them counts this one as applied and is left as it is (docs/DECISIONS.md P-48).
Its own name is not in the list: a database that applied them has it recorded
already, and a migration that replaces itself is dropped from Django's graph.
"""

import django.core.validators
import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

import games.models.bots
import games.models.tables

#: The built-in rule sets, created in this order (their ids on a new database are
#: those of the databases made before): name, variant, overrides, description,
#: preselected for its variant. A description is data an admin may edit: a
#: database made before keeps the one it stored.
BUILT_IN_RULE_SETS = [
    (
        "Belote (standard)",
        "belote",
        {},
        "Classic team Belote with the default rules.",
        True,
    ),
    (
        "Open Blot (standard)",
        "open_blot",
        {},
        "Open Blot with the default rules.",
        True,
    ),
    (
        "Belote with announcements",
        "belote",
        {"announcements": True},
        "Classic team Belote with tierce, cinquante, cent and carré announced in the first trick.",
        False,
    ),
    (
        "Coinche",
        "belote",
        {"all_trump": True, "announcements": True, "coinche": True, "no_trump": True},
        "All eight cards dealt, an auction of contracts from 80 to 160 or capot, coinche and "
        "surcoinche, with announcements, all-trump and no-trump contracts.",
        False,
    ),
]


def create_built_in_rule_sets(apps, schema_editor):
    """Also called by the tests after a flush: a rule set already there is kept."""
    RuleSetConfig = apps.get_model("games", "RuleSetConfig")
    for name, variant, overrides, description, is_default in BUILT_IN_RULE_SETS:
        RuleSetConfig.objects.get_or_create(
            name=name,
            defaults={
                "variant": variant,
                "overrides": overrides,
                "description": description,
                "is_default": is_default,
            },
        )


def remove_built_in_rule_sets(apps, schema_editor):
    RuleSetConfig = apps.get_model("games", "RuleSetConfig")
    RuleSetConfig.objects.filter(name__in=[rule_set[0] for rule_set in BUILT_IN_RULE_SETS]).delete()


class Migration(migrations.Migration):
    initial = True

    replaces = [
        ("games", "0002_default_rule_sets"),
        ("games", "0003_live_play"),
        ("games", "0004_languages"),
        ("games", "0005_hardening"),
        ("games", "0006_tournaments"),
        ("games", "0007_table_trick_pause"),
        ("games", "0008_leave_rematch"),
        ("games", "0009_verbose_names"),
        ("games", "0010_match_event_resigned"),
        ("games", "0011_h21_resign_result_pause_bot_names"),
        ("games", "0011_h24a_pools_ratings"),
        ("games", "0011_h24b_social"),
        ("games", "0011_h25_chat"),
        ("games", "0011_h26a_analysis"),
        ("games", "0012_h24a_pool_seen"),
        ("games", "0012_merge_0011_h24b_social_0011_h25_chat"),
        ("games", "0013_merge_20261202_0755"),
        ("games", "0014_merge_0012_h24a_pool_seen_0013_merge_20261202_0755"),
        ("games", "0015_merge_20261202_0815"),
        ("games", "0016_analysis_heartbeat"),
        ("games", "0017_analysis_match_requests"),
        ("games", "0018_pool_waits_and_rating_fairness"),
        ("games", "0019_ratings_shown_as_skill"),
        ("games", "0020_bot_accounts"),
        ("games", "0021_coinche_rule_sets_and_games"),
        ("games", "0022_ops_analysis_queue_index"),
    ]

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Match",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "variant",
                    models.CharField(
                        choices=[("belote", "Belote"), ("open_blot", "Open Blot")],
                        max_length=20,
                        verbose_name="variant",
                    ),
                ),
                ("rules", models.JSONField(blank=True, default=dict, verbose_name="rules")),
                ("format", models.CharField(max_length=20, verbose_name="format")),
                (
                    "status",
                    models.CharField(
                        choices=[("playing", "Playing"), ("finished", "Finished")],
                        default="playing",
                        max_length=10,
                        verbose_name="status",
                    ),
                ),
                ("rated", models.BooleanField(default=False, verbose_name="rated")),
                ("first_dealer", models.PositiveSmallIntegerField(verbose_name="first dealer")),
                (
                    "winner",
                    models.PositiveSmallIntegerField(
                        blank=True, null=True, verbose_name="winning side"
                    ),
                ),
                ("started_at", models.DateTimeField(auto_now_add=True, verbose_name="started")),
                (
                    "finished_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="finished"),
                ),
            ],
            options={
                "verbose_name": "match",
                "verbose_name_plural": "matches",
                "ordering": ["-started_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="RuleSetConfig",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=80, unique=True, verbose_name="name")),
                (
                    "variant",
                    models.CharField(
                        choices=[("belote", "Belote"), ("open_blot", "Open Blot")],
                        max_length=20,
                        verbose_name="variant",
                    ),
                ),
                ("overrides", models.JSONField(blank=True, default=dict, verbose_name="overrides")),
                ("description", models.TextField(blank=True, verbose_name="description")),
                (
                    "is_default",
                    models.BooleanField(
                        default=False,
                        help_text="Preselected in the create-table form.",
                        verbose_name="default for its variant",
                    ),
                ),
                ("updated_at", models.DateTimeField(auto_now=True, verbose_name="updated")),
            ],
            options={
                "verbose_name": "rule set",
                "verbose_name_plural": "rule sets",
                "ordering": ["variant", "-is_default", "name"],
            },
        ),
        migrations.CreateModel(
            name="ApiToken",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=40, verbose_name="name")),
                (
                    "digest",
                    models.CharField(
                        editable=False, max_length=64, unique=True, verbose_name="digest"
                    ),
                ),
                (
                    "prefix",
                    models.CharField(editable=False, max_length=12, verbose_name="beginning"),
                ),
                ("scopes", models.JSONField(default=list, verbose_name="scopes")),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="created")),
                (
                    "last_used_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="last used"),
                ),
                ("revoked_at", models.DateTimeField(blank=True, null=True, verbose_name="revoked")),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="api_tokens",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="user",
                    ),
                ),
            ],
            options={
                "verbose_name": "API token",
                "verbose_name_plural": "API tokens",
                "ordering": ["-created_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="BotAccount",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("made_at", models.DateTimeField(auto_now_add=True, verbose_name="became a bot")),
                (
                    "ladder_variants",
                    models.JSONField(blank=True, default=list, verbose_name="ladder variants"),
                ),
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="bot_account",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="user",
                    ),
                ),
            ],
            options={
                "verbose_name": "bot account",
                "verbose_name_plural": "bot accounts",
            },
        ),
        migrations.CreateModel(
            name="ChatSilence",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("until", models.DateTimeField(verbose_name="silenced until")),
                ("reason", models.CharField(blank=True, max_length=200, verbose_name="reason")),
                (
                    "created_at",
                    models.DateTimeField(default=django.utils.timezone.now, verbose_name="created"),
                ),
                (
                    "created_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="silenced by",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="chat_silences",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="person",
                    ),
                ),
            ],
            options={
                "verbose_name": "chat silence",
                "verbose_name_plural": "chat silences",
                "ordering": ["-until"],
            },
        ),
        migrations.CreateModel(
            name="Entrant",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "partner_status",
                    models.CharField(
                        choices=[
                            ("none", "Looking for a partner"),
                            ("invited", "Invited"),
                            ("accepted", "Accepted"),
                            ("bot", "Bot partner"),
                        ],
                        default="none",
                        max_length=10,
                        verbose_name="partner",
                    ),
                ),
                (
                    "bot_level",
                    models.CharField(
                        blank=True,
                        choices=[("easy", "Easy"), ("normal", "Normal"), ("hard", "Hard")],
                        max_length=10,
                        null=True,
                        verbose_name="bot level",
                    ),
                ),
                ("name", models.CharField(max_length=100, verbose_name="name")),
                (
                    "seed",
                    models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="seed"),
                ),
                ("removed", models.BooleanField(default=False, verbose_name="removed")),
                (
                    "place",
                    models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="place"),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="registered")),
                (
                    "partner",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="tournament_partnerships",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="partner",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="tournament_entries",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="user",
                    ),
                ),
            ],
            options={
                "verbose_name": "entrant",
                "verbose_name_plural": "entrants",
                "ordering": ["tournament", "seed", "created_at", "id"],
            },
        ),
        migrations.CreateModel(
            name="Deal",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.PositiveIntegerField(verbose_name="number")),
                ("dealer", models.PositiveSmallIntegerField(verbose_name="dealer")),
                ("deck", models.JSONField(verbose_name="deck")),
                ("shuffle_salt", models.CharField(max_length=128, verbose_name="shuffle salt")),
                ("commitment", models.CharField(max_length=128, verbose_name="commitment")),
                ("actions", models.JSONField(blank=True, default=list, verbose_name="actions")),
                ("result", models.JSONField(blank=True, null=True, verbose_name="result")),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("playing", "Playing"),
                            ("finished", "Finished"),
                            ("abandoned", "Abandoned"),
                        ],
                        default="playing",
                        max_length=10,
                        verbose_name="status",
                    ),
                ),
                ("started_at", models.DateTimeField(auto_now_add=True, verbose_name="started")),
                (
                    "finished_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="finished"),
                ),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="deals",
                        to="games.match",
                        verbose_name="match",
                    ),
                ),
            ],
            options={
                "verbose_name": "deal",
                "verbose_name_plural": "deals",
                "ordering": ["match", "number"],
            },
        ),
        migrations.CreateModel(
            name="BotRatingChange",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "variant",
                    models.CharField(
                        choices=[("belote", "Belote"), ("open_blot", "Open Blot")],
                        max_length=20,
                        verbose_name="variant",
                    ),
                ),
                ("index", models.PositiveSmallIntegerField(verbose_name="seat")),
                ("shown_before", models.IntegerField(verbose_name="rating before")),
                ("shown_after", models.IntegerField(verbose_name="rating after")),
                ("matches_after", models.PositiveIntegerField(verbose_name="rated matches after")),
                ("won", models.BooleanField(verbose_name="won")),
                ("at", models.DateTimeField(verbose_name="when")),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="bot_rating_changes",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="bot",
                    ),
                ),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="bot_rating_changes",
                        to="games.match",
                        verbose_name="match",
                    ),
                ),
            ],
            options={
                "verbose_name": "bot rating change",
                "verbose_name_plural": "bot rating changes",
                "ordering": ["at", "id"],
            },
        ),
        migrations.CreateModel(
            name="MatchEvent",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("index", models.PositiveSmallIntegerField(verbose_name="seat")),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("left", "Left the table"),
                            ("returned", "Returned to the table"),
                            ("resigned", "Resigned the match"),
                        ],
                        max_length=10,
                        verbose_name="what",
                    ),
                ),
                (
                    "at",
                    models.DateTimeField(default=django.utils.timezone.now, verbose_name="when"),
                ),
                (
                    "deal_number",
                    models.PositiveIntegerField(blank=True, null=True, verbose_name="deal"),
                ),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="events",
                        to="games.match",
                        verbose_name="match",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="match_events",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="user",
                    ),
                ),
            ],
            options={
                "verbose_name": "match event",
                "verbose_name_plural": "match events",
                "ordering": ["match", "at", "id"],
            },
        ),
        migrations.CreateModel(
            name="Participant",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("index", models.PositiveSmallIntegerField(verbose_name="seat")),
                (
                    "bot_level",
                    models.CharField(
                        blank=True,
                        choices=[("easy", "Easy"), ("normal", "Normal"), ("hard", "Hard")],
                        max_length=10,
                        null=True,
                        verbose_name="bot level",
                    ),
                ),
                ("name", models.CharField(max_length=40, verbose_name="name")),
                ("bot_account", models.BooleanField(default=False, verbose_name="bot account")),
                (
                    "bot_number",
                    models.PositiveSmallIntegerField(
                        blank=True, null=True, verbose_name="bot number"
                    ),
                ),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="participants",
                        to="games.match",
                        verbose_name="match",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="participations",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="user",
                    ),
                ),
            ],
            options={
                "verbose_name": "participant",
                "verbose_name_plural": "participants",
                "ordering": ["match", "index"],
            },
        ),
        migrations.CreateModel(
            name="Player",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("display_name", models.CharField(max_length=40, verbose_name="display name")),
                (
                    "name_key",
                    models.CharField(
                        editable=False, max_length=200, unique=True, verbose_name="name key"
                    ),
                ),
                (
                    "language",
                    models.CharField(
                        choices=[
                            ("en", "English"),
                            ("fr", "Français"),
                            ("ru", "Русский"),
                            ("hy", "Հայերեն"),
                            ("ka", "ქართული"),
                        ],
                        default="en",
                        max_length=10,
                        verbose_name="preferred language",
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="joined")),
                (
                    "is_bot",
                    models.BooleanField(default=False, editable=False, verbose_name="bot account"),
                ),
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="player",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="user",
                    ),
                ),
            ],
            options={
                "verbose_name": "player",
                "verbose_name_plural": "players",
                "ordering": ["display_name"],
            },
        ),
        migrations.CreateModel(
            name="PoolWait",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "variant",
                    models.CharField(
                        choices=[
                            ("belote", "Belote"),
                            ("coinche", "Coinche"),
                            ("open_blot", "Open Blot"),
                        ],
                        max_length=20,
                        verbose_name="game",
                    ),
                ),
                ("format", models.CharField(max_length=20, verbose_name="format")),
                ("rated", models.BooleanField(default=False, verbose_name="rated")),
                ("waited_s", models.FloatField(verbose_name="seconds waited")),
                ("at", models.DateTimeField(verbose_name="paired")),
            ],
            options={
                "verbose_name": "pool wait",
                "verbose_name_plural": "pool waits",
                "indexes": [
                    models.Index(
                        fields=["variant", "format", "rated", "-at"],
                        name="games_poolw_variant_659384_idx",
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="Rating",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "variant",
                    models.CharField(
                        choices=[
                            ("belote", "Belote"),
                            ("coinche", "Coinche"),
                            ("open_blot", "Open Blot"),
                        ],
                        max_length=20,
                        verbose_name="game",
                    ),
                ),
                ("mu", models.FloatField(default=1500.0, verbose_name="skill estimate")),
                ("sigma", models.FloatField(default=250.0, verbose_name="uncertainty")),
                ("shown", models.IntegerField(default=1500, verbose_name="rating")),
                ("matches", models.PositiveIntegerField(default=0, verbose_name="rated matches")),
                (
                    "last_played",
                    models.DateTimeField(blank=True, null=True, verbose_name="last rated match"),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="ratings",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="player",
                    ),
                ),
            ],
            options={
                "verbose_name": "rating",
                "verbose_name_plural": "ratings",
            },
        ),
        migrations.CreateModel(
            name="RatingChange",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "variant",
                    models.CharField(
                        choices=[
                            ("belote", "Belote"),
                            ("coinche", "Coinche"),
                            ("open_blot", "Open Blot"),
                        ],
                        max_length=20,
                        verbose_name="game",
                    ),
                ),
                ("index", models.PositiveSmallIntegerField(verbose_name="seat")),
                ("shown_before", models.IntegerField(verbose_name="rating before")),
                ("shown_after", models.IntegerField(verbose_name="rating after")),
                ("mu_after", models.FloatField(verbose_name="skill estimate after")),
                ("sigma_after", models.FloatField(verbose_name="uncertainty after")),
                ("matches_after", models.PositiveIntegerField(verbose_name="rated matches after")),
                ("won", models.BooleanField(verbose_name="won")),
                ("forfeit", models.CharField(blank=True, max_length=10, verbose_name="forfeit")),
                ("at", models.DateTimeField(verbose_name="when")),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rating_changes",
                        to="games.match",
                        verbose_name="match",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rating_changes",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="player",
                    ),
                ),
            ],
            options={
                "verbose_name": "rating change",
                "verbose_name_plural": "rating changes",
                "ordering": ["at", "id"],
            },
        ),
        migrations.CreateModel(
            name="Rematch",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "accepted",
                    models.JSONField(blank=True, default=list, verbose_name="accepted by seats"),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="offered")),
                (
                    "match",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rematch",
                        to="games.match",
                        verbose_name="match",
                    ),
                ),
                (
                    "new_match",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="rematch_of",
                        to="games.match",
                        verbose_name="new match",
                    ),
                ),
            ],
            options={
                "verbose_name": "rematch",
                "verbose_name_plural": "rematches",
            },
        ),
        migrations.CreateModel(
            name="ScoreRow",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.PositiveIntegerField(verbose_name="deal")),
                ("dealer", models.PositiveSmallIntegerField(verbose_name="dealer")),
                (
                    "trump",
                    models.CharField(blank=True, max_length=2, null=True, verbose_name="trump"),
                ),
                (
                    "taker",
                    models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="taker"),
                ),
                ("deal_points", models.JSONField(verbose_name="points")),
                ("totals", models.JSONField(verbose_name="totals")),
                ("markers", models.JSONField(blank=True, default=list, verbose_name="markers")),
                ("held_points", models.PositiveIntegerField(default=0, verbose_name="held points")),
                (
                    "awarded",
                    models.JSONField(
                        blank=True,
                        help_text="[side, points]",
                        null=True,
                        verbose_name="held points awarded",
                    ),
                ),
                ("wins", models.JSONField(blank=True, default=list, verbose_name="deals won")),
                (
                    "deal",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="score_row",
                        to="games.deal",
                        verbose_name="deal",
                    ),
                ),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="score_rows",
                        to="games.match",
                        verbose_name="match",
                    ),
                ),
            ],
            options={
                "verbose_name": "score row",
                "verbose_name_plural": "score rows",
                "ordering": ["match", "number"],
            },
        ),
        migrations.CreateModel(
            name="Table",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "variant",
                    models.CharField(
                        choices=[("belote", "Belote"), ("open_blot", "Open Blot")],
                        max_length=20,
                        verbose_name="variant",
                    ),
                ),
                (
                    "rule_set_name",
                    models.CharField(blank=True, max_length=80, verbose_name="rule set name"),
                ),
                (
                    "rules_snapshot",
                    models.JSONField(blank=True, default=dict, verbose_name="rules (snapshot)"),
                ),
                ("format", models.CharField(max_length=20, verbose_name="format")),
                ("is_private", models.BooleanField(default=False, verbose_name="private")),
                (
                    "invite_token",
                    models.CharField(
                        default=games.models.tables.new_invite_token,
                        editable=False,
                        max_length=40,
                        unique=True,
                        verbose_name="invite token",
                    ),
                ),
                ("version", models.PositiveIntegerField(default=0, verbose_name="version")),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("waiting", "Waiting for players"),
                            ("playing", "Playing"),
                            ("finished", "Finished"),
                        ],
                        default="waiting",
                        max_length=10,
                        verbose_name="status",
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="created")),
                (
                    "turn_seconds",
                    models.PositiveIntegerField(
                        default=30,
                        validators=[
                            django.core.validators.MinValueValidator(5),
                            django.core.validators.MaxValueValidator(600),
                        ],
                        verbose_name="seconds per turn",
                    ),
                ),
                (
                    "disconnect_grace_seconds",
                    models.PositiveIntegerField(
                        default=60,
                        validators=[
                            django.core.validators.MinValueValidator(0),
                            django.core.validators.MaxValueValidator(3600),
                        ],
                        verbose_name="disconnect grace (seconds)",
                    ),
                ),
                (
                    "bot_delay_ms",
                    models.PositiveIntegerField(
                        default=700,
                        validators=[django.core.validators.MaxValueValidator(10000)],
                        verbose_name="bot delay (ms)",
                    ),
                ),
                (
                    "trick_pause_ms",
                    models.PositiveIntegerField(
                        default=1000,
                        validators=[django.core.validators.MaxValueValidator(5000)],
                        verbose_name="trick pause (ms)",
                    ),
                ),
                (
                    "result_pause_seconds",
                    models.PositiveIntegerField(
                        default=10,
                        validators=[
                            django.core.validators.MinValueValidator(2),
                            django.core.validators.MaxValueValidator(60),
                        ],
                        verbose_name="pause after a deal (seconds)",
                    ),
                ),
                ("rated", models.BooleanField(default=False, verbose_name="rated")),
                (
                    "spectator_count",
                    models.PositiveIntegerField(default=0, verbose_name="spectators"),
                ),
                (
                    "turn_started_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="turn started"),
                ),
                (
                    "wakeup_at",
                    models.DateTimeField(
                        blank=True, db_index=True, null=True, verbose_name="next wake-up"
                    ),
                ),
                (
                    "created_by",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="created_tables",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="created by",
                    ),
                ),
                (
                    "rule_set",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="tables",
                        to="games.rulesetconfig",
                        verbose_name="rule set",
                    ),
                ),
            ],
            options={
                "verbose_name": "table",
                "verbose_name_plural": "tables",
                "ordering": ["-created_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="Seat",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("index", models.PositiveSmallIntegerField(verbose_name="seat")),
                (
                    "bot_level",
                    models.CharField(
                        blank=True,
                        choices=[("easy", "Easy"), ("normal", "Normal"), ("hard", "Hard")],
                        max_length=10,
                        null=True,
                        verbose_name="bot level",
                    ),
                ),
                ("left_at", models.DateTimeField(blank=True, null=True, verbose_name="left")),
                (
                    "returned_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="returned"),
                ),
                (
                    "stand_in_since",
                    models.DateTimeField(blank=True, null=True, verbose_name="stand-in since"),
                ),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="seats",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="player",
                    ),
                ),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seats",
                        to="games.table",
                        verbose_name="table",
                    ),
                ),
            ],
            options={
                "verbose_name": "seat",
                "verbose_name_plural": "seats",
                "ordering": ["table", "index"],
            },
        ),
        migrations.CreateModel(
            name="Presence",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "channel_name",
                    models.CharField(max_length=200, unique=True, verbose_name="channel"),
                ),
                (
                    "seat_index",
                    models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="seat"),
                ),
                ("connected_at", models.DateTimeField(verbose_name="connected")),
                ("last_seen", models.DateTimeField(verbose_name="last seen")),
                ("closed_at", models.DateTimeField(blank=True, null=True, verbose_name="closed")),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="user",
                    ),
                ),
                (
                    "table",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="presences",
                        to="games.table",
                        verbose_name="table",
                    ),
                ),
            ],
            options={
                "verbose_name": "connection",
                "verbose_name_plural": "connections",
            },
        ),
        migrations.CreateModel(
            name="PoolEntry",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "variant",
                    models.CharField(
                        choices=[
                            ("belote", "Belote"),
                            ("coinche", "Coinche"),
                            ("open_blot", "Open Blot"),
                        ],
                        max_length=20,
                        verbose_name="game",
                    ),
                ),
                ("format", models.CharField(max_length=20, verbose_name="format")),
                ("rated", models.BooleanField(default=False, verbose_name="rated")),
                (
                    "bots_ok",
                    models.BooleanField(default=False, verbose_name="fill with bots after 30 s"),
                ),
                ("joined_at", models.DateTimeField(verbose_name="joined")),
                (
                    "seen_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="last seen waiting"),
                ),
                ("paired_at", models.DateTimeField(blank=True, null=True, verbose_name="paired")),
                (
                    "partner",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="partner",
                    ),
                ),
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="pool_entry",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="player",
                    ),
                ),
                (
                    "table",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="games.table",
                        verbose_name="table",
                    ),
                ),
            ],
            options={
                "verbose_name": "pool entry",
                "verbose_name_plural": "pool entries",
                "ordering": ["joined_at", "id"],
            },
        ),
        migrations.AddField(
            model_name="match",
            name="table",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="matches",
                to="games.table",
                verbose_name="table",
            ),
        ),
        migrations.CreateModel(
            name="Challenge",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "variant",
                    models.CharField(
                        choices=[
                            ("belote", "Belote"),
                            ("coinche", "Coinche"),
                            ("open_blot", "Open Blot"),
                        ],
                        max_length=20,
                        verbose_name="game",
                    ),
                ),
                ("format", models.CharField(max_length=20, verbose_name="format")),
                ("rated", models.BooleanField(default=False, verbose_name="rated")),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("pending", "Waiting for an answer"),
                            ("accepted", "Accepted"),
                            ("declined", "Declined"),
                            ("cancelled", "Cancelled"),
                            ("expired", "Expired"),
                        ],
                        default="pending",
                        max_length=10,
                        verbose_name="status",
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="created")),
                ("expires_at", models.DateTimeField(verbose_name="expires")),
                (
                    "challenged_accepted",
                    models.BooleanField(
                        default=False, verbose_name="accepted by the challenged player"
                    ),
                ),
                (
                    "partner_accepted",
                    models.BooleanField(default=False, verbose_name="accepted by the partner"),
                ),
                (
                    "answered_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="answered"),
                ),
                (
                    "challenger_dismissed",
                    models.BooleanField(default=False, verbose_name="dismissed"),
                ),
                (
                    "challenged",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="challenges_received",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="challenged player",
                    ),
                ),
                (
                    "challenger",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="challenges_sent",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="challenger",
                    ),
                ),
                (
                    "declined_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="declined by",
                    ),
                ),
                (
                    "partner",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="challenges_partnered",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="challenger's partner",
                    ),
                ),
                (
                    "table",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="games.table",
                        verbose_name="table",
                    ),
                ),
            ],
            options={
                "verbose_name": "challenge",
                "verbose_name_plural": "challenges",
            },
        ),
        migrations.CreateModel(
            name="Tournament",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=120, verbose_name="name")),
                (
                    "variant",
                    models.CharField(
                        choices=[("belote", "Belote"), ("open_blot", "Open Blot")],
                        default="open_blot",
                        max_length=20,
                        verbose_name="variant",
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("knockout", "Knockout"),
                            ("swiss", "Swiss"),
                            ("round_robin", "Round robin"),
                        ],
                        default="knockout",
                        max_length=12,
                        verbose_name="kind",
                    ),
                ),
                (
                    "rule_set_name",
                    models.CharField(blank=True, max_length=80, verbose_name="rule set name"),
                ),
                (
                    "rules_snapshot",
                    models.JSONField(blank=True, default=dict, verbose_name="rules (snapshot)"),
                ),
                (
                    "format",
                    models.CharField(
                        default="best_of:1", max_length=20, verbose_name="match format"
                    ),
                ),
                ("rated", models.BooleanField(default=False, verbose_name="rated")),
                (
                    "max_entrants",
                    models.PositiveSmallIntegerField(
                        default=8,
                        validators=[
                            django.core.validators.MinValueValidator(2),
                            django.core.validators.MaxValueValidator(128),
                        ],
                        verbose_name="maximum entrants",
                    ),
                ),
                (
                    "rounds",
                    models.PositiveSmallIntegerField(
                        blank=True,
                        help_text="Swiss only; empty: derived from the number of entrants.",
                        null=True,
                        validators=[
                            django.core.validators.MinValueValidator(1),
                            django.core.validators.MaxValueValidator(12),
                        ],
                        verbose_name="rounds",
                    ),
                ),
                (
                    "third_place",
                    models.BooleanField(default=False, verbose_name="third-place match"),
                ),
                (
                    "fill_with_bots",
                    models.CharField(
                        blank=True,
                        choices=[("easy", "Easy"), ("normal", "Normal"), ("hard", "Hard")],
                        default="",
                        max_length=10,
                        verbose_name="fill empty places with bots",
                    ),
                ),
                ("featured", models.BooleanField(default=False, verbose_name="featured")),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("draft", "Draft"),
                            ("registration", "Registration open"),
                            ("running", "Running"),
                            ("finished", "Finished"),
                            ("cancelled", "Cancelled"),
                        ],
                        default="draft",
                        max_length=12,
                        verbose_name="status",
                    ),
                ),
                (
                    "starts_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="start time"),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="created")),
                ("started_at", models.DateTimeField(blank=True, null=True, verbose_name="started")),
                (
                    "finished_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="finished"),
                ),
                (
                    "turn_seconds",
                    models.PositiveIntegerField(
                        default=30,
                        validators=[
                            django.core.validators.MinValueValidator(5),
                            django.core.validators.MaxValueValidator(600),
                        ],
                        verbose_name="seconds per turn",
                    ),
                ),
                (
                    "disconnect_grace_seconds",
                    models.PositiveIntegerField(
                        default=60,
                        validators=[
                            django.core.validators.MinValueValidator(0),
                            django.core.validators.MaxValueValidator(3600),
                        ],
                        verbose_name="disconnect grace (seconds)",
                    ),
                ),
                (
                    "bot_delay_ms",
                    models.PositiveIntegerField(
                        default=700,
                        validators=[django.core.validators.MaxValueValidator(10000)],
                        verbose_name="bot delay (ms)",
                    ),
                ),
                ("version", models.PositiveIntegerField(default=0, verbose_name="version")),
                (
                    "wakeup_at",
                    models.DateTimeField(
                        blank=True, db_index=True, null=True, verbose_name="next wake-up"
                    ),
                ),
                (
                    "created_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="organised_tournaments",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="organiser",
                    ),
                ),
                (
                    "rule_set",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="tournaments",
                        to="games.rulesetconfig",
                        verbose_name="rule set",
                    ),
                ),
            ],
            options={
                "verbose_name": "tournament",
                "verbose_name_plural": "tournaments",
                "ordering": ["-featured", "-created_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="Pairing",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("round", models.PositiveSmallIntegerField(verbose_name="round")),
                ("index", models.PositiveSmallIntegerField(verbose_name="match")),
                (
                    "status",
                    models.CharField(
                        choices=[("playing", "Playing"), ("finished", "Finished")],
                        default="playing",
                        max_length=10,
                        verbose_name="status",
                    ),
                ),
                ("points_a", models.IntegerField(default=0, verbose_name="points (a)")),
                ("points_b", models.IntegerField(default=0, verbose_name="points (b)")),
                ("forfeit", models.BooleanField(default=False, verbose_name="forfeit")),
                (
                    "third_place",
                    models.BooleanField(default=False, verbose_name="third-place match"),
                ),
                (
                    "entrant_a",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="games.entrant",
                        verbose_name="first entrant",
                    ),
                ),
                (
                    "entrant_b",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="games.entrant",
                        verbose_name="second entrant",
                    ),
                ),
                (
                    "match",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="games.match",
                        verbose_name="match",
                    ),
                ),
                (
                    "winner",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="games.entrant",
                        verbose_name="winner",
                    ),
                ),
                (
                    "table",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to="games.table",
                        verbose_name="table",
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="pairings",
                        to="games.tournament",
                        verbose_name="tournament",
                    ),
                ),
            ],
            options={
                "verbose_name": "pairing",
                "verbose_name_plural": "pairings",
                "ordering": ["tournament", "round", "index"],
            },
        ),
        migrations.AddField(
            model_name="match",
            name="tournament",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="matches",
                to="games.tournament",
                verbose_name="tournament",
            ),
        ),
        migrations.AddField(
            model_name="entrant",
            name="tournament",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="entrants",
                to="games.tournament",
                verbose_name="tournament",
            ),
        ),
        migrations.CreateModel(
            name="ChatPolicy",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("free_text", models.BooleanField(default=True, verbose_name="free text allowed")),
                (
                    "table",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="chat_policy",
                        to="games.table",
                        verbose_name="table",
                    ),
                ),
                (
                    "tournament",
                    models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="chat_policy",
                        to="games.tournament",
                        verbose_name="tournament",
                    ),
                ),
            ],
            options={
                "verbose_name": "chat setting",
                "verbose_name_plural": "chat settings",
            },
        ),
        migrations.CreateModel(
            name="ChatMessage",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "room",
                    models.CharField(
                        choices=[
                            ("players", "Players"),
                            ("spectators", "Spectators"),
                            ("tournament", "Tournament"),
                        ],
                        max_length=12,
                        verbose_name="room",
                    ),
                ),
                (
                    "phrase",
                    models.CharField(blank=True, max_length=32, verbose_name="quick phrase"),
                ),
                ("text", models.CharField(blank=True, max_length=400, verbose_name="text")),
                (
                    "created_at",
                    models.DateTimeField(default=django.utils.timezone.now, verbose_name="sent"),
                ),
                ("deleted_at", models.DateTimeField(blank=True, null=True, verbose_name="deleted")),
                (
                    "author",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="chat_messages",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="author",
                    ),
                ),
                (
                    "deleted_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="deleted by",
                    ),
                ),
                (
                    "match",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="chat_messages",
                        to="games.match",
                        verbose_name="match",
                    ),
                ),
                (
                    "table",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="chat_messages",
                        to="games.table",
                        verbose_name="table",
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="chat_messages",
                        to="games.tournament",
                        verbose_name="tournament",
                    ),
                ),
            ],
            options={
                "verbose_name": "chat message",
                "verbose_name_plural": "chat messages",
                "ordering": ["-created_at", "-id"],
            },
        ),
        migrations.CreateModel(
            name="TournamentRound",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.PositiveSmallIntegerField(verbose_name="round")),
                ("started_at", models.DateTimeField(auto_now_add=True, verbose_name="started")),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="round_set",
                        to="games.tournament",
                        verbose_name="tournament",
                    ),
                ),
            ],
            options={
                "verbose_name": "tournament round",
                "verbose_name_plural": "tournament rounds",
                "ordering": ["tournament", "number"],
            },
        ),
        migrations.CreateModel(
            name="UnratedMatch",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "reason",
                    models.CharField(
                        choices=[
                            ("stand-ins", "both sides left it to stand-ins"),
                            ("early", "it ended before enough cards were played"),
                            (
                                "repeated",
                                "these opponents had met in enough rated matches that day",
                            ),
                        ],
                        max_length=10,
                        verbose_name="reason",
                    ),
                ),
                ("at", models.DateTimeField(verbose_name="when")),
                (
                    "match",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="unrated",
                        to="games.match",
                        verbose_name="match",
                    ),
                ),
            ],
            options={
                "verbose_name": "unrated match",
                "verbose_name_plural": "unrated matches",
            },
        ),
        migrations.CreateModel(
            name="AccessMark",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[("address", "address"), ("device", "browser")],
                        max_length=10,
                        verbose_name="kind",
                    ),
                ),
                ("digest", models.CharField(max_length=64, verbose_name="digest")),
                ("first_seen", models.DateTimeField(verbose_name="first seen")),
                ("last_seen", models.DateTimeField(verbose_name="last seen")),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="access_marks",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="player",
                    ),
                ),
            ],
            options={
                "verbose_name": "access mark",
                "verbose_name_plural": "access marks",
                "indexes": [
                    models.Index(fields=["kind", "digest"], name="games_acces_kind_62bd73_idx")
                ],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("user", "kind", "digest"), name="access_mark_once"
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="BotRating",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "variant",
                    models.CharField(
                        choices=[("belote", "Belote"), ("open_blot", "Open Blot")],
                        max_length=20,
                        verbose_name="variant",
                    ),
                ),
                ("mu", models.FloatField(default=1500.0, verbose_name="skill estimate")),
                ("sigma", models.FloatField(default=250.0, verbose_name="uncertainty")),
                (
                    "shown",
                    models.IntegerField(default=games.models.bots.new_shown, verbose_name="rating"),
                ),
                ("matches", models.PositiveIntegerField(default=0, verbose_name="rated matches")),
                (
                    "last_played",
                    models.DateTimeField(blank=True, null=True, verbose_name="last rated match"),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="bot_ratings",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="bot",
                    ),
                ),
            ],
            options={
                "verbose_name": "bot rating",
                "verbose_name_plural": "bot ratings",
                "indexes": [
                    models.Index(
                        fields=["variant", "-shown"], name="games_botra_variant_f54e5c_idx"
                    )
                ],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("user", "variant"), name="bot_rating_one_per_variant"
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="ChatMute",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "created_at",
                    models.DateTimeField(default=django.utils.timezone.now, verbose_name="created"),
                ),
                (
                    "muted",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="muted person",
                    ),
                ),
                (
                    "muter",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="chat_mutes",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="muted by",
                    ),
                ),
            ],
            options={
                "verbose_name": "chat mute",
                "verbose_name_plural": "chat mutes",
                "constraints": [
                    models.UniqueConstraint(fields=("muter", "muted"), name="chat_mute_once")
                ],
            },
        ),
        migrations.CreateModel(
            name="ChatReport",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "reported_text",
                    models.CharField(max_length=400, verbose_name="reported message"),
                ),
                ("context", models.JSONField(default=list, verbose_name="context")),
                ("where", models.CharField(blank=True, max_length=200, verbose_name="where")),
                (
                    "created_at",
                    models.DateTimeField(
                        default=django.utils.timezone.now, verbose_name="reported"
                    ),
                ),
                ("handled", models.BooleanField(default=False, verbose_name="handled")),
                (
                    "message",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="reports",
                        to="games.chatmessage",
                        verbose_name="message",
                    ),
                ),
                (
                    "reported_user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="chat_reports",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="reported person",
                    ),
                ),
                (
                    "reporter",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="reported by",
                    ),
                ),
            ],
            options={
                "verbose_name": "chat report",
                "verbose_name_plural": "chat reports",
                "ordering": ["handled", "-created_at"],
                "constraints": [
                    models.UniqueConstraint(fields=("message", "reporter"), name="chat_report_once")
                ],
            },
        ),
        migrations.CreateModel(
            name="DealAnalysis",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("queued", "Queued"),
                            ("running", "Running"),
                            ("done", "Done"),
                            ("failed", "Failed"),
                        ],
                        default="queued",
                        max_length=10,
                        verbose_name="status",
                    ),
                ),
                (
                    "done_steps",
                    models.PositiveIntegerField(default=0, verbose_name="steps analysed"),
                ),
                (
                    "total_steps",
                    models.PositiveIntegerField(default=0, verbose_name="steps to analyse"),
                ),
                (
                    "requested_at",
                    models.DateTimeField(
                        default=django.utils.timezone.now, verbose_name="requested"
                    ),
                ),
                (
                    "whole_match",
                    models.BooleanField(default=False, verbose_name="asked with its whole match"),
                ),
                (
                    "place",
                    models.PositiveIntegerField(default=0, verbose_name="place in its request"),
                ),
                (
                    "beat_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="last heartbeat"),
                ),
                ("claim", models.PositiveIntegerField(default=0, verbose_name="claims")),
                (
                    "finished_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="finished"),
                ),
                ("result", models.JSONField(blank=True, null=True, verbose_name="result")),
                (
                    "deal",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="analysis",
                        to="games.deal",
                        verbose_name="deal",
                    ),
                ),
                (
                    "requested_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="deal_analyses",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="requested by",
                    ),
                ),
            ],
            options={
                "verbose_name": "deal analysis",
                "verbose_name_plural": "deal analyses",
                "ordering": ["place", "requested_at", "id"],
                "indexes": [
                    models.Index(
                        condition=models.Q(("status", "queued")),
                        fields=["requested_at"],
                        name="analysis_queued_oldest",
                    )
                ],
            },
        ),
        migrations.CreateModel(
            name="Follow",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="created")),
                (
                    "followed",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="followers",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="followed player",
                    ),
                ),
                (
                    "follower",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="following",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="follower",
                    ),
                ),
            ],
            options={
                "verbose_name": "follow",
                "verbose_name_plural": "follows",
                "constraints": [
                    models.UniqueConstraint(fields=("follower", "followed"), name="follow_once"),
                    models.CheckConstraint(
                        condition=models.Q(("follower", models.F("followed")), _negated=True),
                        name="follow_not_oneself",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="FairPlaySignal",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("shared-address", "opponents logged in from one address"),
                            ("shared-device", "opponents used one browser"),
                            ("early", "rated match ended before enough cards were played"),
                            ("repeated", "opponents past the day's rated meetings"),
                        ],
                        max_length=20,
                        verbose_name="kind",
                    ),
                ),
                ("at", models.DateTimeField(verbose_name="when")),
                ("reviewed", models.BooleanField(default=False, verbose_name="reviewed")),
                (
                    "people",
                    models.ManyToManyField(
                        related_name="+", to=settings.AUTH_USER_MODEL, verbose_name="people"
                    ),
                ),
                (
                    "match",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="fair_play_signals",
                        to="games.match",
                        verbose_name="match",
                    ),
                ),
            ],
            options={
                "verbose_name": "fair-play signal",
                "verbose_name_plural": "fair-play signals",
                "ordering": ["-at", "-id"],
                "constraints": [
                    models.UniqueConstraint(fields=("match", "kind"), name="fair_play_signal_once")
                ],
            },
        ),
        migrations.AddConstraint(
            model_name="deal",
            constraint=models.UniqueConstraint(
                fields=("match", "number"), name="deal_unique_number"
            ),
        ),
        migrations.AddConstraint(
            model_name="botratingchange",
            constraint=models.UniqueConstraint(
                fields=("match", "user"), name="bot_rating_change_once"
            ),
        ),
        migrations.AddConstraint(
            model_name="participant",
            constraint=models.UniqueConstraint(
                fields=("match", "index"), name="participant_unique_index"
            ),
        ),
        migrations.AddIndex(
            model_name="rating",
            index=models.Index(fields=["variant", "-shown"], name="games_ratin_variant_14bea4_idx"),
        ),
        migrations.AddConstraint(
            model_name="rating",
            constraint=models.UniqueConstraint(
                fields=("user", "variant"), name="rating_one_per_variant"
            ),
        ),
        migrations.AddIndex(
            model_name="ratingchange",
            index=models.Index(
                fields=["user", "variant", "at"], name="games_ratin_user_id_5efd50_idx"
            ),
        ),
        migrations.AddConstraint(
            model_name="ratingchange",
            constraint=models.UniqueConstraint(fields=("match", "user"), name="rating_change_once"),
        ),
        migrations.AddConstraint(
            model_name="scorerow",
            constraint=models.UniqueConstraint(
                fields=("match", "number"), name="scorerow_unique_number"
            ),
        ),
        migrations.AddIndex(
            model_name="table",
            index=models.Index(
                fields=["status", "is_private", "variant"], name="games_table_status_0064dc_idx"
            ),
        ),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.UniqueConstraint(fields=("table", "index"), name="seat_unique_index"),
        ),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.UniqueConstraint(
                condition=models.Q(("user__isnull", False)),
                fields=("table", "user"),
                name="seat_one_per_user",
            ),
        ),
        migrations.AddConstraint(
            model_name="seat",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("user__isnull", True), ("bot_level__isnull", True), _connector="OR"
                ),
                name="seat_user_or_bot",
            ),
        ),
        migrations.AddIndex(
            model_name="presence",
            index=models.Index(
                fields=["table", "seat_index", "closed_at"], name="games_prese_table_i_669178_idx"
            ),
        ),
        migrations.AddIndex(
            model_name="poolentry",
            index=models.Index(
                fields=["table", "variant", "format", "rated"],
                name="games_poole_table_i_6eb3dc_idx",
            ),
        ),
        migrations.AddIndex(
            model_name="challenge",
            index=models.Index(
                fields=["challenged", "status"], name="games_chall_challen_ff560a_idx"
            ),
        ),
        migrations.AddIndex(
            model_name="challenge",
            index=models.Index(
                fields=["challenger", "status"], name="games_chall_challen_136b27_idx"
            ),
        ),
        migrations.AddIndex(
            model_name="challenge",
            index=models.Index(fields=["partner", "status"], name="games_chall_partner_d1e790_idx"),
        ),
        migrations.AddConstraint(
            model_name="pairing",
            constraint=models.UniqueConstraint(
                fields=("tournament", "round", "index"), name="pairing_unique_place"
            ),
        ),
        migrations.AddConstraint(
            model_name="entrant",
            constraint=models.UniqueConstraint(
                condition=models.Q(("user__isnull", False)),
                fields=("tournament", "user"),
                name="entrant_one_per_user",
            ),
        ),
        migrations.AddConstraint(
            model_name="entrant",
            constraint=models.UniqueConstraint(
                condition=models.Q(("seed__isnull", False)),
                fields=("tournament", "seed"),
                name="entrant_unique_seed",
            ),
        ),
        migrations.AddConstraint(
            model_name="chatpolicy",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("table__isnull", True), ("tournament__isnull", True), _connector="XOR"
                ),
                name="chat_policy_one_owner",
            ),
        ),
        migrations.AddIndex(
            model_name="chatmessage",
            index=models.Index(
                fields=["table", "room", "created_at"], name="games_chatm_table_i_def65b_idx"
            ),
        ),
        migrations.AddIndex(
            model_name="chatmessage",
            index=models.Index(
                fields=["tournament", "created_at"], name="games_chatm_tournam_fdd482_idx"
            ),
        ),
        migrations.AddIndex(
            model_name="chatmessage",
            index=models.Index(fields=["room", "created_at"], name="games_chatm_room_229ea0_idx"),
        ),
        migrations.AddConstraint(
            model_name="chatmessage",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("phrase", ""), models.Q(("text", ""), _negated=True)),
                    models.Q(models.Q(("phrase", ""), _negated=True), ("text", "")),
                    _connector="OR",
                ),
                name="chat_phrase_or_text",
            ),
        ),
        migrations.AddConstraint(
            model_name="tournamentround",
            constraint=models.UniqueConstraint(
                fields=("tournament", "number"), name="round_unique_number"
            ),
        ),
        migrations.RunPython(create_built_in_rule_sets, remove_built_in_rule_sets),
    ]
