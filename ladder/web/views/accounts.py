"""Sign up, the API token page and password reset (log in, log out and password change are
Django's own views, configured in ``ladder/web/urls.py``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.views.decorators.http import require_http_methods

from ladder.accounts.services import api_token, create_user, rotate_token
from ladder.core.errors import ServiceError
from ladder.core.throttles import wait_seconds
from ladder.web.forms import SignUpForm


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("web:my-bots")
    form = SignUpForm(request.POST or None)
    if request.method == "POST":
        wait = wait_seconds(request, "signups")  # per address: the visitor has no account yet
        if wait is not None:
            form.add_error(
                None, f"Too many sign-ups from your address; try again in {wait} seconds."
            )
            response = render(request, "web/signup.html", {"form": form}, status=429)
            response["Retry-After"] = str(wait)
            return response
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            user = create_user(data["username"], password=data["password1"], email=data["email"])
        except ServiceError as exc:
            form.add_error("username", str(exc))
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome, {user.username}. Create your first bot below.")
            return redirect("web:bot-new")
    return render(request, "web/signup.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def token(request: HttpRequest) -> HttpResponse:
    """Show the API token; POST replaces it (the old one stops working at once)."""
    if request.method == "POST":
        rotate_token(request.user)
        messages.success(request, "Your API token was replaced; the old one no longer works.")
        return redirect("web:token")
    return render(request, "web/token.html", {"token": api_token(request.user)})


class ThrottledPasswordResetView(auth_views.PasswordResetView):
    """Django's reset form, counted per address: each request may send an e-mail, so a visitor
    must not be able to flood an inbox (or our mail relay) through it.

    Like Django's view, it answers the same "check your inbox" page whether or not an account
    has the address, so the form does not tell who has an account here.
    """

    template_name = "web/password_reset.html"
    email_template_name = "web/password_reset_email.txt"
    subject_template_name = "web/password_reset_subject.txt"
    success_url = reverse_lazy("web:password-reset-done")

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        wait = wait_seconds(request, "password_resets")
        if wait is None:
            return super().post(request, *args, **kwargs)
        form = self.get_form()
        form.is_valid()  # bound and cleaned, so the page shows what was typed
        form.add_error(
            None, f"Too many reset requests from your address; try again in {wait} seconds."
        )
        response = self.render_to_response(self.get_context_data(form=form), status=429)
        response["Retry-After"] = str(wait)
        return response
