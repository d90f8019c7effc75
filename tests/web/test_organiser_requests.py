"""Becoming an organiser: the explanation and request at /tournaments/new/, staff's decision in
the admin, and the message the user gets on their next page."""

from __future__ import annotations

import pytest
from django.contrib.admin.sites import site
from django.urls import reverse

from ladder.accounts.models import OrganiserRequest
from ladder.accounts.selectors import is_organiser
from ladder.accounts.services import decide_organiser_request, request_organiser
from ladder.core.errors import Conflict, NotAllowed, ServiceError
from tests.factories import make_user, web_client

NEW = reverse("web:tournament-new")
ASK = reverse("web:organiser-request")


@pytest.fixture
def ursula(db):
    return make_user("ursula")


@pytest.fixture
def staff(db):
    user = make_user("stella", staff=True)
    user.is_superuser = True  # the admin's actions need its permissions
    user.save(update_fields=["is_superuser"])
    return user


def test_a_non_organiser_is_told_what_an_organiser_is_and_can_ask(ursula, staff):
    client = web_client(ursula)
    page = client.get(NEW)
    assert page.status_code == 200
    body = page.content.decode()
    assert "Become an organiser" in body and "An organiser sets a tournament up" in body
    assert 'action="/tournaments/organisers/request/"' in body
    refused = client.post(ASK, {"reason": "  "})
    assert refused.status_code == 400 and OrganiserRequest.objects.count() == 0
    sent = client.post(ASK, {"reason": "A Borneo cup for my class"})
    assert sent.status_code == 302
    waiting = client.get(NEW).content.decode()
    assert 'id="organiser-pending"' in waiting and "<form" not in waiting.split("<main")[1]
    again = client.post(ASK, {"reason": "again"})
    assert again.status_code == 409 and "still waiting" in again.content.decode()
    # Staff approve it in the admin; the user is told once, on their next page, and can create.
    req = OrganiserRequest.objects.get()
    admin = web_client(staff)
    changelist = reverse("admin:accounts_organiserrequest_changelist")
    response = admin.post(changelist, {"action": "approve", "_selected_action": [req.pk]})
    assert response.status_code == 302
    ursula.refresh_from_db()
    assert is_organiser(ursula)
    told = client.get(reverse("web:tournaments")).content.decode()
    assert "you are an organiser now" in told
    assert "you are an organiser now" not in client.get(reverse("web:tournaments")).content.decode()
    assert client.get(NEW).status_code == 200


def test_decisions_are_staff_only_and_once(ursula, staff):
    req = request_organiser(ursula, reason="a league")
    with pytest.raises(NotAllowed):
        decide_organiser_request(req.pk, staff=ursula, approve=True)
    decide_organiser_request(req.pk, staff=staff, approve=False)
    with pytest.raises(Conflict):
        decide_organiser_request(req.pk, staff=staff, approve=True)
    assert not is_organiser(ursula)
    client = web_client(ursula)
    # A script's fetch does not swallow the message: only a page load shows it.
    client.get(reverse("web:tournaments"), HTTP_ACCEPT="*/*")
    assert "declined" in client.get(reverse("web:tournaments")).content.decode()
    # Declined, the user may ask again.
    request_organiser(ursula, reason="a bigger league")
    with pytest.raises(ServiceError):
        request_organiser(ursula, reason="")


def test_an_organiser_cannot_ask(staff):
    with pytest.raises(Conflict):
        request_organiser(staff, reason="more")
    assert OrganiserRequest in site._registry
