# The five languages of the site, and translatable names for the
# admin's remaining field and model labels: choices and labels only, no schema change.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_live_play"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="participant",
            options={
                "ordering": ["match", "index"],
                "verbose_name": "participant",
                "verbose_name_plural": "participants",
            },
        ),
        migrations.AlterField(
            model_name="deal",
            name="match",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="deals",
                to="games.match",
                verbose_name="match",
            ),
        ),
        migrations.AlterField(
            model_name="match",
            name="table",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="matches",
                to="games.table",
                verbose_name="table",
            ),
        ),
        migrations.AlterField(
            model_name="match",
            name="tournament",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="matches",
                to="games.tournament",
                verbose_name="tournament",
            ),
        ),
        migrations.AlterField(
            model_name="participant",
            name="match",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="participants",
                to="games.match",
                verbose_name="match",
            ),
        ),
        migrations.AlterField(
            model_name="participant",
            name="user",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="participations",
                to=settings.AUTH_USER_MODEL,
                verbose_name="user",
            ),
        ),
        migrations.AlterField(
            model_name="player",
            name="language",
            field=models.CharField(
                choices=[
                    ("en", "English"),
                    ("fr", "Français"),
                    ("ru", "Русский"),
                    ("hy", "Հայերեն"),
                    ("ka", "ქართული"),
                ],
                default="en",
                max_length=10,
                verbose_name="preferred language",
            ),
        ),
        migrations.AlterField(
            model_name="player",
            name="user",
            field=models.OneToOneField(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="player",
                to=settings.AUTH_USER_MODEL,
                verbose_name="user",
            ),
        ),
        migrations.AlterField(
            model_name="presence",
            name="table",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="presences",
                to="games.table",
                verbose_name="table",
            ),
        ),
        migrations.AlterField(
            model_name="presence",
            name="user",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                to=settings.AUTH_USER_MODEL,
                verbose_name="user",
            ),
        ),
        migrations.AlterField(
            model_name="scorerow",
            name="deal",
            field=models.OneToOneField(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="score_row",
                to="games.deal",
                verbose_name="deal",
            ),
        ),
        migrations.AlterField(
            model_name="scorerow",
            name="match",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="score_rows",
                to="games.match",
                verbose_name="match",
            ),
        ),
        migrations.AlterField(
            model_name="seat",
            name="table",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="seats",
                to="games.table",
                verbose_name="table",
            ),
        ),
    ]
