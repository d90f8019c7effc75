from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from ladder.web.views import (
    accounts,
    bots,
    challenge,
    learn,
    matches,
    seasons,
    site,
    tournament_setup,
    tournaments,
    versus,
)

app_name = "web"

urlpatterns = [
    path("", site.home, name="home"),
    path("ladders/<slug:game>/<int:players>/", site.standings, name="standings"),
    path("ladders/<slug:game>/seasons/", seasons.season_list, name="seasons"),
    path("ladders/<slug:game>/seasons/<int:number>/", seasons.season_detail, name="season"),
    path("ladders/<slug:game>/<int:players>/table/", site.standings_table, name="standings-table"),
    path("start/", learn.start, name="start"),
    path("start/kits/<slug:language>.tar.gz", learn.kit, name="kit"),
    path("start/<str:filename>", learn.kit_wheel, name="kit-wheel"),
    path("games/<slug:game>/", learn.rules, name="rules"),
    path("docs/protocol/", learn.protocol, name="protocol"),
    path("docs/languages/", learn.languages, name="languages"),
    path("challenge/", challenge.challenge_index, name="challenge"),
    path("bots/<slug:name>/challenge/", challenge.challenge_bot, name="bot-challenge"),
    path("bots/<slug:name>/status/", bots.version_status, name="bot-status"),
    path("bots/new/", bots.bot_new, name="bot-new"),
    path("bots/<slug:name>/", bots.bot_detail, name="bot"),
    path("bots/<slug:name>/versions/<int:number>/smoke/", bots.smoke_match, name="bot-smoke-match"),
    path("bots/<slug:name>/version-tests/", versus.bot_version_tests, name="bot-version-tests"),
    path("version-tests/<int:pk>/", versus.version_test_detail, name="version-test"),
    path("version-tests/<int:pk>/cancel/", versus.version_test_cancel, name="version-test-cancel"),
    path("matches/<int:pk>/", matches.match_detail, name="match"),
    path("matches/<int:pk>/live/", matches.match_live, name="match-live"),
    path("tournaments/", tournaments.tournament_list, name="tournaments"),
    path("tournaments/new/", tournament_setup.tournament_new, name="tournament-new"),
    path(
        "tournaments/organisers/request/",
        tournament_setup.organiser_request,
        name="organiser-request",
    ),
    path("tournaments/<int:pk>/", tournaments.tournament_detail, name="tournament"),
    path("tournaments/<int:pk>/live/", tournaments.tournament_live, name="tournament-live"),
    path("tournaments/<int:pk>/edit/", tournament_setup.tournament_edit, name="tournament-edit"),
    path(
        "tournaments/<int:pk>/invite/", tournament_setup.tournament_invite, name="tournament-invite"
    ),
    path("tournaments/<int:pk>/register/", tournaments.register, name="tournament-register"),
    path("tournaments/<int:pk>/unregister/", tournaments.unregister, name="tournament-unregister"),
    *[
        path(
            f"tournaments/<int:pk>/{operation}/",
            tournaments.control,
            {"operation": operation},
            name=f"tournament-{operation}",
        )
        for operation in ("pause", "resume", "cancel")
    ],
    path("me/bots/", bots.my_bots, name="my-bots"),
    path("me/token/", accounts.token, name="token"),
    path("signup/", accounts.signup, name="signup"),
    path(
        "login/",
        auth_views.LoginView.as_view(
            template_name="web/login.html", redirect_authenticated_user=True
        ),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "me/password/",
        auth_views.PasswordChangeView.as_view(
            template_name="web/password_change.html",
            success_url=reverse_lazy("web:password-change-done"),
        ),
        name="password-change",
    ),
    path(
        "me/password/done/",
        auth_views.PasswordChangeDoneView.as_view(template_name="web/password_change_done.html"),
        name="password-change-done",
    ),
    path("password-reset/", accounts.ThrottledPasswordResetView.as_view(), name="password-reset"),
    path(
        "password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(template_name="web/password_reset_done.html"),
        name="password-reset-done",
    ),
    path(
        "password-reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            template_name="web/password_reset_confirm.html",
            success_url=reverse_lazy("web:password-reset-complete"),
        ),
        name="password-reset-confirm",
    ),
    path(
        "password-reset/complete/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="web/password_reset_complete.html"
        ),
        name="password-reset-complete",
    ),
]
