"""The shown rating becomes the skill estimate itself (round(mu)), on the bots'
scale, instead of mu - 2 sigma: every stored number is written again from the
estimates kept beside it, so pages, history graphs and changes agree."""

from __future__ import annotations

from django.db import migrations

MU0 = 1500.0  # engine.ratings.MU0 when this was written


def forwards(apps, schema_editor):
    Rating = apps.get_model("games", "Rating")
    RatingChange = apps.get_model("games", "RatingChange")
    for rating in Rating.objects.all().iterator():
        rating.shown = round(rating.mu)
        rating.save(update_fields=["shown"])
    before: dict[tuple[int, str], int] = {}
    for change in RatingChange.objects.order_by("at", "id").iterator():
        key = (change.user_id, change.variant)
        change.shown_before = before.get(key, round(MU0))
        change.shown_after = round(change.mu_after)
        before[key] = change.shown_after
        change.save(update_fields=["shown_before", "shown_after"])


class Migration(migrations.Migration):
    dependencies = [("games", "0018_pool_waits_and_rating_fairness")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
