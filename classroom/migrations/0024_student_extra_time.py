from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('classroom', '0023_devices_and_warmups'),
    ]

    operations = [
        migrations.AddField(
            model_name='student',
            name='extra_time',
            field=models.CharField(blank=True, choices=[('', 'No extra time'), ('x1.5', 'Response window ×1.5'), ('x2', 'Response window ×2'), ('untimed', 'No speed scoring')], default='', max_length=8, verbose_name='Extra time'),
        ),
    ]
