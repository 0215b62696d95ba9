"""The queued analyses' own index: /health/ready/ reads the oldest of them on
every probe (games/ops/health.py), one lookup whatever the table's size."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0021_coinche_rule_sets_and_games"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="dealanalysis",
            index=models.Index(
                condition=models.Q(("status", "queued")),
                fields=["requested_at"],
                name="analysis_queued_oldest",
            ),
        ),
    ]
