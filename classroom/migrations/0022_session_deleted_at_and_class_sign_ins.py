
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('classroom', '0021_trial_tally_steady_takes'),
    ]

    operations = [
        migrations.AddField(
            model_name='gamesession',
            name='deleted_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name='practicesignin',
            name='ended',
            field=models.CharField(blank=True, choices=[('closed', 'The class code closed'), ('rotated', 'The class has a new code'), ('badge', 'The badge was replaced'), ('deleted', 'The class was deleted')], default='', max_length=8),
        ),
    ]
