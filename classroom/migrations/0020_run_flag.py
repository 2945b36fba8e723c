
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("classroom", "0019_how_to_play_seen"),
    ]

    operations = [
        migrations.CreateModel(
            name="RunFlag",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("flags", models.CharField(max_length=200)),
                ("kept", models.BooleanField(default=False)),
                (
                    "seat",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="run_flag",
                        to="classroom.seat",
                    ),
                ),
                (
                    "session",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="classroom.gamesession",
                    ),
                ),
                (
                    "student",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="classroom.student",
                    ),
                ),
            ],
            options={
                "indexes": [
                    models.Index(
                        models.F("student"), models.F("session"), name="run_flag_student_session"
                    )
                ],
            },
        ),
    ]
