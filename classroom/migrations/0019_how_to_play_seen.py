
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('classroom', '0018_class_deleted_at'),
    ]

    operations = [
        migrations.CreateModel(
            name='HowToPlaySeen',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game', models.CharField(max_length=40)),
                ('seen_at', models.DateTimeField(auto_now_add=True)),
                ('student', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='how_to_play', to='classroom.student')),
            ],
            options={
                'constraints': [models.UniqueConstraint(models.F('student'), models.F('game'), name='unique_how_to_play_per_game')],
            },
        ),
    ]
