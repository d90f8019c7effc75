from django.urls import include, path
from rest_framework.routers import DefaultRouter

from ladder.api import versus_views, views

router = DefaultRouter()
router.register("games", views.GameViewSet, basename="game")
router.register("bots", views.BotViewSet, basename="bot")
router.register("versions", views.BotVersionViewSet, basename="version")
router.register("ladders", views.LadderViewSet, basename="ladder")
router.register("matches", views.MatchViewSet, basename="match")
router.register("challenges", views.ChallengeViewSet, basename="challenge")
router.register("tournaments", views.TournamentViewSet, basename="tournament")
router.register("version-tests", versus_views.VersionTestViewSet, basename="version-test")

urlpatterns = [
    path("", include(router.urls)),
    path("auth/token/", views.TokenView.as_view(), name="api-token"),
    path("me/", views.MeView.as_view(), name="me"),
    path("workers/", views.WorkersView.as_view(), name="workers"),
]
