"""Admin: rule sets (validated by the engine), players, tables, matches, deals."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin, messages
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from games.forms import RuleSetAdminForm
from games.models import (
    Deal,
    Entrant,
    Match,
    MatchEvent,
    Pairing,
    Participant,
    Player,
    PoolEntry,
    Rating,
    RatingChange,
    RuleSetConfig,
    ScoreRow,
    Seat,
    Table,
    Tournament,
)
from games.services import ServiceError
from games.services import tournaments as tournament_services

_HIDDEN_WHILE_RUNNING = _("Hidden until the deal is over.")


def _pretty_json(value: Any) -> str:
    return format_html("<pre>{}</pre>", json.dumps(value, indent=2))


@admin.register(RuleSetConfig)
class RuleSetConfigAdmin(admin.ModelAdmin):
    form = RuleSetAdminForm
    list_display = ["name", "variant", "is_default", "overrides_text", "table_count", "updated_at"]
    list_filter = ["variant", "is_default"]
    search_fields = ["name", "description"]

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        return RuleSetAdminForm.fieldsets()

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).annotate(_tables=Count("tables"))

    @admin.display(description=_("overrides"))
    def overrides_text(self, obj: RuleSetConfig) -> str:
        if not obj.overrides:
            return str(_("(defaults)"))
        return ", ".join(f"{k}={v}" for k, v in sorted(obj.overrides.items()))

    @admin.display(description=_("tables"), ordering="_tables")
    def table_count(self, obj: RuleSetConfig) -> int:
        return obj._tables


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["display_name", "user", "language", "created_at"]
    list_filter = ["language"]
    search_fields = ["display_name", "user__username", "user__email"]
    readonly_fields = ["created_at", "statistics"]
    raw_id_fields = ["user"]

    @admin.display(description=_("statistics"))
    def statistics(self, obj: Player) -> str:
        s = obj.stats()
        return str(
            _("%(played)s matches played, %(won)s won, %(deals)s deals played")
            % {"played": s.matches_played, "won": s.matches_won, "deals": s.deals_played}
        )


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "variant",
        "format",
        "status",
        "is_private",
        "rule_set_name",
        "created_by",
        "spectator_count",
        "created_at",
    ]
    list_filter = ["variant", "status", "is_private", "format"]
    search_fields = ["id", "created_by__username", "rule_set_name", "seats__user__username"]
    readonly_fields = ["rules_snapshot_pretty", "invite_token", "version", "created_at"]
    exclude = ["rules_snapshot"]
    raw_id_fields = ["created_by"]
    inlines = [SeatInline]
    date_hierarchy = "created_at"

    @admin.display(description=_("rules (snapshot)"))
    def rules_snapshot_pretty(self, obj: Table) -> str:
        return _pretty_json(obj.rules().as_dict())


class ParticipantInline(admin.TabularInline):
    model = Participant
    extra = 0
    raw_id_fields = ["user"]


class ScoreRowInline(admin.TabularInline):
    model = ScoreRow
    extra = 0
    fields = ["number", "dealer", "trump", "taker", "deal_points", "totals", "markers"]
    readonly_fields = fields
    can_delete = False


class MatchEventInline(admin.TabularInline):
    """Who left the table and came back (the record: read-only)."""

    model = MatchEvent
    extra = 0
    fields = ["index", "user", "kind", "at", "deal_number"]
    readonly_fields = fields
    can_delete = False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "table", "variant", "format", "status", "winner", "started_at"]
    list_filter = ["variant", "status", "format"]
    search_fields = ["id", "table__id", "participants__name", "participants__user__username"]
    raw_id_fields = ["table", "tournament"]
    inlines = [ParticipantInline, ScoreRowInline, MatchEventInline]
    date_hierarchy = "started_at"


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ["id", "match", "number", "dealer", "status", "action_count", "started_at"]
    list_filter = ["status", "match__variant"]
    search_fields = ["match__id", "commitment"]
    raw_id_fields = ["match"]
    fields = [
        "match", "number", "dealer", "status", "commitment", "salt_shown",
        "record_pretty", "result_pretty", "started_at", "finished_at",
    ]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # the action log is the source of truth: read it, never edit it

    @admin.display(description=_("actions"))
    def action_count(self, obj: Deal) -> int:
        return len(obj.actions)

    # The salt and the record (deck included) stay hidden while the deal runs,
    # here as on the site: a staff member may be seated at the table (issue 10).
    @admin.display(description=_("shuffle salt"))
    def salt_shown(self, obj: Deal) -> str:
        return obj.shuffle_salt if obj.is_finished else _HIDDEN_WHILE_RUNNING

    @admin.display(description=_("deal record"))
    def record_pretty(self, obj: Deal) -> str:
        return _pretty_json(obj.record_dict()) if obj.is_finished else _HIDDEN_WHILE_RUNNING

    @admin.display(description=_("result"))
    def result_pretty(self, obj: Deal) -> str:
        return _pretty_json(obj.result)


class EntrantInline(admin.TabularInline):
    model = Entrant
    extra = 0
    fields = ["seed", "name", "user", "partner", "partner_status", "bot_level", "removed", "place"]
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class PairingInline(admin.TabularInline):
    model = Pairing
    extra = 0
    fields = ["round", "index", "entrant_a", "entrant_b", "status", "winner", "forfeit", "match"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _run_on_each(modeladmin, request, queryset, step, done: str) -> None:
    """Run a tournament service on each selected row; its refusals are shown."""
    for obj in queryset:
        try:
            step(obj.pk, request.user)
        except ServiceError as exc:
            modeladmin.message_user(request, f"{obj}: {exc.message}", messages.ERROR)
        else:
            modeladmin.message_user(request, done % {"name": obj}, messages.SUCCESS)


@admin.action(description=_("Start the selected tournaments"))
def start_tournaments(modeladmin, request, queryset) -> None:
    _run_on_each(modeladmin, request, queryset, tournament_services.start, _("%(name)s started."))


@admin.action(description=_("Cancel the selected tournaments"))
def cancel_tournaments(modeladmin, request, queryset) -> None:
    _run_on_each(
        modeladmin, request, queryset, tournament_services.cancel, _("%(name)s cancelled.")
    )


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "variant", "kind", "status", "featured", "created_by", "created_at"]
    list_filter = ["variant", "kind", "status", "featured"]
    search_fields = ["name", "created_by__username"]
    inlines = [EntrantInline, PairingInline]
    actions = [start_tournaments, cancel_tournaments]
    # The life cycle goes through the services (actions above); only the
    # presentation may be edited here.
    readonly_fields = [
        "variant", "kind", "rule_set", "rule_set_name", "rules_snapshot", "format",
        "max_entrants", "rounds", "third_place", "fill_with_bots", "status", "starts_at",
        "created_by", "created_at", "started_at", "finished_at", "turn_seconds",
        "disconnect_grace_seconds", "bot_delay_ms", "version", "wakeup_at",
    ]  # fmt: skip

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # created on the site's form, which validates every setting


@admin.action(description=_("Remove the selected entrants (their remaining matches are forfeits)"))
def remove_entrants(modeladmin, request, queryset) -> None:
    _run_on_each(
        modeladmin,
        request,
        queryset,
        tournament_services.remove_entrant,
        _("%(name)s removed."),
    )


@admin.register(Entrant)
class EntrantAdmin(admin.ModelAdmin):
    list_display = ["name", "tournament", "seed", "partner_status", "removed", "place"]
    list_filter = ["removed", "tournament__status"]
    search_fields = ["name", "user__username", "tournament__name"]
    readonly_fields = [
        "tournament", "user", "partner", "partner_status", "bot_level", "name", "seed",
        "removed", "place", "created_at",
    ]  # fmt: skip
    actions = [remove_entrants]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # removing goes through the action: it records the forfeits


# --- Play now and ratings (issue 24): read-only, the services change them -----------------


class _ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(_ReadOnly):
    list_display = ["user", "variant", "shown", "matches", "last_played"]
    list_filter = ["variant"]
    search_fields = ["user__username"]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a rating is its matches' history


@admin.register(RatingChange)
class RatingChangeAdmin(_ReadOnly):
    list_display = ["match", "user", "variant", "shown_before", "shown_after", "won", "forfeit"]
    list_filter = ["variant", "forfeit"]
    search_fields = ["user__username"]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(PoolEntry)
class PoolEntryAdmin(_ReadOnly):
    """Who waits in which Play-now pool; staff may take someone out (delete)."""

    list_display = [
        "user", "variant", "format", "rated", "bots_ok", "partner", "joined_at", "table",
    ]  # fmt: skip
    list_filter = ["variant", "rated"]
    search_fields = ["user__username"]
