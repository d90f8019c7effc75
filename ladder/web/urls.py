from django.contrib.auth import views as auth_views
from django.urls import path

from ladder.web.views import accounts, bots, matches, site, tournaments

app_name = "web"

urlpatterns = [
    path("", site.home, name="home"),
    path("ladders/<slug:game>/<int:players>/", site.standings, name="standings"),
    path("ladders/<slug:game>/<int:players>/table/", site.standings_table, name="standings-table"),
    path("bots/new/", bots.bot_new, name="bot-new"),
    path("bots/<slug:name>/", bots.bot_detail, name="bot"),
    path("matches/<int:pk>/", matches.match_detail, name="match"),
    path("tournaments/", tournaments.tournament_list, name="tournaments"),
    path("tournaments/<int:pk>/", tournaments.tournament_detail, name="tournament"),
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
]
