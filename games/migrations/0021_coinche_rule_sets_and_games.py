"""Coinche as its own game for Play-now pools, challenges and ratings, and the two built-in
rule sets of Belote as France plays it online (docs/rules.md §7): Belote with
announcements (classic bidding) and Coinche (the auction, with announcements,
all-trump and no-trump contracts)."""

from django.db import migrations, models

GAMES = [("belote", "Belote"), ("coinche", "Coinche"), ("open_blot", "Open Blot")]

RULE_SETS = [
    (
        "Belote with announcements",
        {"announcements": True},
        "Classic team Belote with tierce, cinquante, cent and carré announced in the first trick.",
    ),
    (
        "Coinche",
        {"all_trump": True, "announcements": True, "coinche": True, "no_trump": True},
        "All eight cards dealt, an auction of contracts from 80 to 160 or capot, coinche and "
        "surcoinche, with announcements, all-trump and no-trump contracts.",
    ),
]


def create_rule_sets(apps, schema_editor):
    RuleSetConfig = apps.get_model("games", "RuleSetConfig")
    for name, overrides, description in RULE_SETS:
        RuleSetConfig.objects.get_or_create(
            name=name,
            defaults={
                "variant": "belote",
                "overrides": overrides,
                "description": description,
                "is_default": False,
            },
        )


def remove_rule_sets(apps, schema_editor):
    RuleSetConfig = apps.get_model("games", "RuleSetConfig")
    RuleSetConfig.objects.filter(name__in=[name for name, _, _ in RULE_SETS]).delete()


class Migration(migrations.Migration):
    dependencies = [("games", "0020_bot_accounts")]

    operations = [
        migrations.AlterField(
            model_name="challenge",
            name="variant",
            field=models.CharField(choices=GAMES, max_length=20, verbose_name="game"),
        ),
        migrations.AlterField(
            model_name="poolentry",
            name="variant",
            field=models.CharField(choices=GAMES, max_length=20, verbose_name="game"),
        ),
        migrations.AlterField(
            model_name="poolwait",
            name="variant",
            field=models.CharField(choices=GAMES, max_length=20, verbose_name="game"),
        ),
        migrations.AlterField(
            model_name="rating",
            name="variant",
            field=models.CharField(choices=GAMES, max_length=20, verbose_name="game"),
        ),
        migrations.AlterField(
            model_name="ratingchange",
            name="variant",
            field=models.CharField(choices=GAMES, max_length=20, verbose_name="game"),
        ),
        migrations.RunPython(create_rule_sets, remove_rule_sets),
    ]
