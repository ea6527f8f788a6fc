from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language

from .accounts import AdminLoginForm, LoginView, device_pass

admin.site.login_form = AdminLoginForm

# Log in, log out, change one's password.  No password reset by e-mail: the site sends no
# mail, so an arbiter who forgot it asks the administrator, who runs
# ``manage.py changepassword <username>`` (README, "Accounts").
accounts = [
    path("login/", LoginView.as_view(), name="login"),
    path("device-pass/<str:token>/", device_pass, name="device_pass"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("password_change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include(accounts)),
    # the language picker posts here (Django's set_language: a cookie, then back to the
    # page).  Without a CSRF check, like the table density: the public pages are one
    # cached copy for every visitor, with no visitor's token in it, and a forged post
    # only changes the language of the browser that sends it.
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    path("", include("pairing.urls")),
]
