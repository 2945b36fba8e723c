

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('classroom', '0027_export_home_reports'),
    ]

    operations = [
        migrations.AddField(
            model_name='seat',
            name='help_dismissed_at',
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
    ]
