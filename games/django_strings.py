"""Texts of Django's own that the site shows and that Django's catalogue for one
of our languages leaves in English (found by tests/i18n/test_pages.py). Marking
them here puts them in our catalogues, which take precedence over Django's."""

from django.utils.translation import gettext_noop

DJANGO_TEXTS = (
    # django.contrib.auth: the username field's help (Armenian is missing it).
    gettext_noop("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
)
