# A student's trials leave with them: removing a student, or deleting their class, deletes
# the trials recorded under their name (they were kept, anonymous, before).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("classroom", "0003_trial_signal_columns"),
    ]

    operations = [
        migrations.AlterField(
            model_name="trial",
            name="student",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="trials",
                to="classroom.student",
            ),
        ),
    ]
