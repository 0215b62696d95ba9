import django.core.validators
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_tournaments"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="trick_pause_ms",
            field=models.PositiveIntegerField(
                default=1000,
                validators=[django.core.validators.MaxValueValidator(5000)],
                verbose_name="trick pause (ms)",
            ),
        ),
    ]
