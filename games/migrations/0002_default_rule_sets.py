"""One standard rule set per variant (the defaults of docs/rules.md §6, no overrides).

The descriptions stored below are kept as these rows were first written."""

from django.db import migrations

DEFAULTS = [
    ("belote", "Belote (standard)", "Classic team Belote with the RULES.md defaults."),
    ("open_blot", "Open Blot (standard)", "Open Blot with the RULES.md defaults."),
]


def create_defaults(apps, schema_editor):
    RuleSetConfig = apps.get_model("games", "RuleSetConfig")
    for variant, name, description in DEFAULTS:
        RuleSetConfig.objects.get_or_create(
            name=name,
            defaults={
                "variant": variant,
                "overrides": {},
                "description": description,
                "is_default": True,
            },
        )


def remove_defaults(apps, schema_editor):
    RuleSetConfig = apps.get_model("games", "RuleSetConfig")
    RuleSetConfig.objects.filter(name__in=[name for _, name, _ in DEFAULTS]).delete()


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunPython(create_defaults, remove_defaults)]
