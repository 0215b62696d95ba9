"""Players' display names get a unique comparison key (games.models.names.key).

Players who already shared a name (in any letter case or Unicode form) keep it:
the later ones' keys get "#<id>" appended, so the database accepts them, and the
name checks make them choose another name the next time they edit it.
"""

from django.db import migrations, models

from games.models import names


def fill_keys(apps, schema_editor) -> None:
    Player = apps.get_model("games", "Player")
    seen: set[str] = set()
    for player in Player.objects.order_by("id"):
        key = names.key(player.display_name)
        if not key or key in seen:
            key = f"{key}#{player.pk}"
        seen.add(key)
        player.name_key = key
        player.save(update_fields=["name_key"])


class Migration(migrations.Migration):
    dependencies = [("games", "0004_languages")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(default="", editable=False, max_length=200),
            preserve_default=False,
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="player",
            name="name_key",
            field=models.CharField(editable=False, max_length=200, unique=True),
        ),
    ]
