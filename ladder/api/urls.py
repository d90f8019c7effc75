from django.urls import include, path
from rest_framework.routers import DefaultRouter

from ladder.api.views import (
    auth,
    bots,
    challenges,
    games,
    ladders,
    matches,
    tournaments,
    versions,
    versus,
    workers,
)

router = DefaultRouter()
router.register("games", games.GameViewSet, basename="game")
router.register("bots", bots.BotViewSet, basename="bot")
router.register("versions", versions.BotVersionViewSet, basename="version")
router.register("ladders", ladders.LadderViewSet, basename="ladder")
router.register("matches", matches.MatchViewSet, basename="match")
router.register("challenges", challenges.ChallengeViewSet, basename="challenge")
router.register("tournaments", tournaments.TournamentViewSet, basename="tournament")
router.register("version-tests", versus.VersionTestViewSet, basename="version-test")

urlpatterns = [
    path("", include(router.urls)),
    path("auth/token/", auth.TokenView.as_view(), name="api-token"),
    path("me/", auth.MeView.as_view(), name="me"),
    path("workers/", workers.WorkersView.as_view(), name="workers"),
]
