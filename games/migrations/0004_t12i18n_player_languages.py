# The five languages of the site (issue 12); only the choices change.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_live_play"),
    ]

    operations = [
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
    ]
