from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from .accounts import AdminLoginForm, LoginView

admin.site.login_form = AdminLoginForm

# Log in, log out, change one's password.  No password reset by e-mail: the site sends no
# mail, so an arbiter who forgot it asks the administrator, who runs
# ``manage.py changepassword <username>`` (README, "Accounts").
accounts = [
    path("login/", LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("password_change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include(accounts)),
    # the language picker posts here (Django's set_language: a cookie, then back to the page)
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("pairing.urls")),
]
