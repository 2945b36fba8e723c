
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('classroom', '0022_session_deleted_at_and_class_sign_ins'),
    ]

    operations = [
        migrations.AddField(
            model_name='gamesession',
            name='warmup',
            field=models.BooleanField(default=False, verbose_name='Warm-up: 20 taps first'),
        ),
        migrations.AddField(
            model_name='student',
            name='practice_warmup',
            field=models.BooleanField(default=True, verbose_name='Warm up before practice'),
        ),
        migrations.CreateModel(
            name='Device',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('user_agent', models.CharField(max_length=300)),
                ('screen_width', models.PositiveSmallIntegerField()),
                ('screen_height', models.PositiveSmallIntegerField()),
                ('frame_interval_ms', models.DecimalField(decimal_places=1, max_digits=4)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
            ],
            options={
                'constraints': [models.UniqueConstraint(models.F('user_agent'), models.F('screen_width'), models.F('screen_height'), models.F('frame_interval_ms'), name='unique_device_report')],
            },
        ),
        migrations.AddField(
            model_name='seat',
            name='device',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='seats', to='classroom.device'),
        ),
        migrations.AddField(
            model_name='trial',
            name='device',
            field=models.ForeignKey(blank=True, db_index=False, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='classroom.device'),
        ),
        migrations.CreateModel(
            name='Warmup',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('rts', models.JSONField(default=list)),
                ('median_ms', models.PositiveIntegerField(blank=True, null=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('device', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='warmups', to='classroom.device')),
                ('seat', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='warmup', to='classroom.seat')),
            ],
        ),
    ]
