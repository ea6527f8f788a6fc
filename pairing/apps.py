from django.apps import AppConfig


class PairingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "pairing"
    verbose_name = "Dubov pairing"
