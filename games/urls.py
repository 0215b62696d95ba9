"""URLs of the games app and the account pages."""

from django.contrib.auth import views as auth_views
from django.urls import path

from games.views import (
    accounts,
    bots,
    help,
    language,
    leaderboard,
    lobby,
    matches,
    play_now,
    seating,
    tables,
    tournaments,
)
from games.views import analysis as analyses
from games.views import replay as replays
from games.views import social as social_views
from games.views.login import LoginView

urlpatterns = [
    path("", lobby.lobby, name="lobby"),
    # The header's language switcher (a POST form; URLs do not change with language).
    path("language/", language.set_language, name="set_language"),
    # How to play, one page per variant, in the reader's language.
    path("rules/<slug:variant>/", help.how_to_play, name="how_to_play"),
    # Accounts (Django's auth views with our templates).
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/login/", LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("accounts/profile/", accounts.profile_edit, name="profile_edit"),
    # Bot accounts: the upgrade, API tokens, ladder games; the bot leaderboard.
    path("accounts/bot/", bots.become_bot, name="become_bot"),
    path("accounts/bot/tokens/", bots.token_create, name="token_create"),
    path("accounts/bot/tokens/<int:pk>/revoke/", bots.token_revoke, name="token_revoke"),
    path("accounts/bot/ladder/", bots.ladder, name="bot_ladder"),
    path("bots/leaderboard/", bots.bot_leaderboard, name="bot_leaderboard"),
    path(
        "bots/leaderboard/<slug:variant>/", bots.bot_leaderboard, name="bot_leaderboard_variant"
    ),
    path("players/<str:username>/", accounts.profile, name="profile"),
    # Following players and challenging them (games/views/social.py).
    path(
        "players/<str:username>/follow/", social_views.follow, {"action": "follow"}, name="follow"
    ),
    path(
        "players/<str:username>/unfollow/",
        social_views.follow,
        {"action": "unfollow"},
        name="unfollow",
    ),
    path("players/<str:username>/challenge/", social_views.challenge, name="challenge"),
    path(
        "challenges/<int:pk>/<slug:action>/", social_views.challenge_answer, name="challenge_answer"
    ),
    path("following/", social_views.following, name="following"),
    # Tables.
    path("tables/new/", tables.table_create, name="table_create"),
    path("tables/<int:pk>/", tables.table_detail, name="table"),
    path("tables/<int:pk>/cancel/", tables.table_cancel, name="table_cancel"),
    path("tables/<int:pk>/seats/<int:index>/join/", tables.seat_join, name="seat_join"),
    path("tables/<int:pk>/seats/<int:index>/leave/", tables.seat_leave, name="seat_leave"),
    # A running match: leave it, come back; a finished one: rematch.
    path("tables/<int:pk>/leave-match/", seating.leave, name="match_leave"),
    path("tables/<int:pk>/return/", seating.come_back, name="match_return"),
    path("tables/<int:pk>/resign/", seating.resign, name="match_resign"),
    path("tables/<int:pk>/next-deal/", seating.next_deal, name="match_next_deal"),
    path(
        "tables/<int:pk>/matches/<int:match_pk>/rematch/", seating.rematch, name="match_rematch"
    ),
    path("play/bots/<str:variant>/", lobby.play_bots, name="play_bots"),
    # Play now: the pairing pools, and the leaderboards.
    path("play/now/", play_now.play_now, name="play_now"),
    path("play/now/leave/", play_now.leave_queue, name="leave_queue"),
    path("play/now/status/", play_now.queue_status, name="queue_status"),
    path("leaderboard/", leaderboard.leaderboard, name="leaderboard"),
    path("leaderboard/<slug:variant>/", leaderboard.leaderboard, name="leaderboard_variant"),
    path("lobby/tables/", lobby.table_list, name="lobby_tables"),
    path("invite/<str:token>/", tables.table_invite, name="table_invite"),
    # Tournaments.
    path("tournaments/", tournaments.tournament_list, name="tournament_list"),
    path("tournaments/new/", tournaments.tournament_create, name="tournament_create"),
    path("tournaments/<int:pk>/", tournaments.tournament_detail, name="tournament"),
    path("tournaments/<int:pk>/live/", tournaments.tournament_live, name="tournament_live"),
    path(
        "tournaments/<int:pk>/<slug:action>/",
        tournaments.tournament_action,
        name="tournament_action",
    ),
    # Matches and deals.
    path("matches/<int:pk>/", matches.match_detail, name="match"),
    path("matches/<int:pk>/analyse/", analyses.match_analyse, name="match_analyse"),
    path(
        "matches/<int:pk>/analysis/", analyses.match_analysis_status, name="match_analysis_status"
    ),
    path("matches/<int:pk>/deals/<int:number>/", matches.deal_detail, name="deal"),
    path("matches/<int:pk>/deals/<int:number>/replay/", replays.deal_replay, name="deal_replay"),
    path("matches/<int:pk>/deals/<int:number>/analyse/", analyses.analyse, name="deal_analyse"),
    path(
        "matches/<int:pk>/deals/<int:number>/analysis/",
        analyses.analysis_status,
        name="deal_analysis_status",
    ),
    path(
        "matches/<int:pk>/deals/<int:number>/record.json",
        matches.deal_record,
        name="deal_record",
    ),
]
