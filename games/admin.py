"""Admin: rule sets (validated by the engine), players, tables, matches, deals."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games.forms import RuleSetAdminForm
from games.models import (
    Challenge,
    ChatMessage,
    ChatPolicy,
    ChatReport,
    ChatSilence,
    Deal,
    Entrant,
    FairPlaySignal,
    Match,
    MatchEvent,
    Pairing,
    Participant,
    Phrase,
    Player,
    PoolEntry,
    Rating,
    RatingChange,
    RuleSetConfig,
    ScoreRow,
    Seat,
    Table,
    Tournament,
    UnratedMatch,
)
from games.services import ServiceError
from games.services import chat as chat_services
from games.services import tables as table_services
from games.services import tournaments as tournament_services

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

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
        return obj._tables  # type: ignore[attr-defined]  # annotated by get_queryset


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

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        """A seat given to someone else here changes hands as it does on the site:
        the table's viewers are told, and the old and new holders' sockets at
        the table move to their new places."""
        if formset.model is not Seat or form.instance.pk is None:
            super().save_formset(request, form, formset, change)
            return
        table_id = form.instance.pk
        before = dict(Seat.objects.filter(table_id=table_id).values_list("pk", "user_id"))
        super().save_formset(request, form, formset, change)
        table_services.seat_holders_edited(table_id, before)

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
    fields = readonly_fields = (
        "number",
        "dealer",
        "trump",
        "taker",
        "deal_points",
        "totals",
        "markers",
    )
    can_delete = False


class MatchEventInline(admin.TabularInline):
    """Who left the table and came back (the record: read-only)."""

    model = MatchEvent
    extra = 0
    fields = readonly_fields = ("index", "user", "kind", "at", "deal_number")
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
    fields = readonly_fields = (
        "match",
        "number",
        "dealer",
        "status",
        "commitment",
        "salt_shown",
        "record_pretty",
        "result_pretty",
        "started_at",
        "finished_at",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # the action log is the source of truth: read it, never edit it

    @admin.display(description=_("actions"))
    def action_count(self, obj: Deal) -> int:
        return len(obj.actions)

    # The salt and the record (deck included) stay hidden while the deal runs,
    # here as on the site: a staff member may be seated at the table.
    @admin.display(description=_("shuffle salt"))
    def salt_shown(self, obj: Deal) -> StrOrPromise:
        return obj.shuffle_salt if obj.is_finished else _HIDDEN_WHILE_RUNNING

    @admin.display(description=_("deal record"))
    def record_pretty(self, obj: Deal) -> StrOrPromise:
        return _pretty_json(obj.record_dict()) if obj.is_finished else _HIDDEN_WHILE_RUNNING

    @admin.display(description=_("result"))
    def result_pretty(self, obj: Deal) -> str:
        return _pretty_json(obj.result)


class EntrantInline(admin.TabularInline):
    model = Entrant
    extra = 0
    fields = readonly_fields = (
        "seed",
        "name",
        "user",
        "partner",
        "partner_status",
        "bot_level",
        "removed",
        "place",
    )
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class PairingInline(admin.TabularInline):
    model = Pairing
    extra = 0
    fields = readonly_fields = (
        "round",
        "index",
        "entrant_a",
        "entrant_b",
        "status",
        "winner",
        "forfeit",
        "match",
    )
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _run_on_each(modeladmin, request, queryset, step, done: StrOrPromise) -> None:
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


# Chat moderation: reports with their context, deleting a message for
# everyone (live), silencing a person for a time.

_SILENCES = {"silence_1h": timedelta(hours=1), "silence_24h": timedelta(hours=24)}


def _silence(request: HttpRequest, user_ids: set[int], span: timedelta) -> None:
    until = timezone.now() + span
    for user_id in user_ids:
        chat_services.silence(user_id, until, request.user, reason=gettext("From the admin"))


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("created_at", "room", "table", "tournament", "author", "said", "deleted_at")
    list_filter = ("room", ("deleted_at", admin.EmptyFieldListFilter))
    search_fields = ("text", "author__username")
    list_select_related = ("author",)
    readonly_fields = [f.name for f in ChatMessage._meta.fields]
    actions = ["delete_for_everyone", "silence_1h", "silence_24h"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description=_("said"))
    def said(self, obj: ChatMessage) -> str:
        return obj.text or str(Phrase(obj.phrase).label)

    @admin.action(description=_("Delete for everyone (taken off every open page)"))
    def delete_for_everyone(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        n = chat_services.delete_messages(list(queryset.values_list("pk", flat=True)), request.user)
        said = ngettext("%(n)s message deleted.", "%(n)s messages deleted.", n) % {"n": n}
        self.message_user(request, said)

    @admin.action(description=_("Silence their authors for an hour"))
    def silence_1h(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        authors = set(queryset.values_list("author_id", flat=True))
        _silence(request, authors, _SILENCES["silence_1h"])

    @admin.action(description=_("Silence their authors for a day"))
    def silence_24h(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        authors = set(queryset.values_list("author_id", flat=True))
        _silence(request, authors, _SILENCES["silence_24h"])


@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin):
    list_display = ("created_at", "reported_user", "reported_text", "reporter", "where", "handled")
    list_filter = ("handled",)
    search_fields = ("reported_text", "reported_user__username", "reporter__username")
    readonly_fields = (
        "message",
        "reporter",
        "reported_user",
        "reported_text",
        "where",
        "created_at",
        "context_shown",
    )
    exclude = ("context",)
    actions = ["delete_reported", "silence_reported_24h", "mark_handled"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description=_("what was said"))
    def context_shown(self, obj: ChatReport) -> str:
        lines = format_html_join(
            "\n",
            "<li>{} <b>{}</b>: {}</li>",
            ((c.get("at", ""), c.get("author", ""), c.get("said", "")) for c in obj.context),
        )
        return format_html("<ol>{}</ol>", lines)

    @admin.action(description=_("Delete the reported messages for everyone"))
    def delete_reported(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        ids = [i for i in queryset.values_list("message_id", flat=True) if i is not None]
        chat_services.delete_messages(ids, request.user)
        queryset.update(handled=True)

    @admin.action(description=_("Silence the reported people for a day"))
    def silence_reported_24h(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        users = set(queryset.values_list("reported_user_id", flat=True))
        _silence(request, users, _SILENCES["silence_24h"])
        queryset.update(handled=True)

    @admin.action(description=_("Mark as handled"))
    def mark_handled(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        queryset.update(handled=True)


@admin.register(ChatSilence)
class ChatSilenceAdmin(admin.ModelAdmin):
    list_display = ("user", "until", "reason", "created_by", "created_at")
    search_fields = ("user__username",)
    fields = ("user", "until", "reason")
    raw_id_fields = ("user",)

    def save_model(self, request: HttpRequest, obj: ChatSilence, form: Any, change: bool) -> None:
        if not change:
            obj.created_by = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)


@admin.register(ChatPolicy)
class ChatPolicyAdmin(admin.ModelAdmin):
    list_display = ("table", "tournament", "free_text")
    raw_id_fields = ("table", "tournament")


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    """Read only: challenges change through games.services.social alone."""

    list_display = ["challenger", "challenged", "variant", "format", "rated", "status"]
    list_filter = ["status", "variant", "rated"]
    search_fields = ["challenger__username", "challenged__username"]
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


# --- Play now and ratings: read-only, the services change them -----------------


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


@admin.register(UnratedMatch)
class UnratedMatchAdmin(_ReadOnly):
    """Rated matches that moved no rating, and why (docs/DECISIONS.md P-20, P-21)."""

    list_display = ["match", "reason", "at"]
    list_filter = ["reason"]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(FairPlaySignal)
class FairPlaySignalAdmin(admin.ModelAdmin):
    """What staff should look at around rated matches: opponents who share an
    address or a browser, matches ended too early, opponents past the day's
    rated meetings. Staff tick "reviewed" once they have looked."""

    list_display = ["at", "kind", "match", "who", "reviewed"]
    list_filter = ["kind", "reviewed"]
    list_editable = ["reviewed"]
    search_fields = ["people__username"]
    readonly_fields = ["kind", "match", "people", "at"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[FairPlaySignal]:
        return super().get_queryset(request).prefetch_related("people")

    @admin.display(description=_("people"))
    def who(self, signal: FairPlaySignal) -> str:
        return ", ".join(sorted(u.get_username() for u in signal.people.all()))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
