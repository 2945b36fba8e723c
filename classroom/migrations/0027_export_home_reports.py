import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('classroom', '0026_student_year_group'),
    ]

    operations = [
        migrations.AddField(
            model_name='export',
            name='period',
            field=models.CharField(blank=True, max_length=10),
        ),
        migrations.AddField(
            model_name='export',
            name='student',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='exports', to='classroom.student'),
        ),
    ]
