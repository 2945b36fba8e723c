
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('classroom', '0025_invitations_and_account_audit'),
    ]

    operations = [
        migrations.AddField(
            model_name='student',
            name='year_group',
            field=models.CharField(blank=True, choices=[('PK', 'Preschool'), ('K', 'Kindergarten'), ('1', 'Year 1'), ('2', 'Year 2'), ('3', 'Year 3'), ('4', 'Year 4'), ('5', 'Year 5'), ('6', 'Year 6'), ('7', 'Year 7'), ('8', 'Year 8'), ('9', 'Year 9'), ('10', 'Year 10'), ('11', 'Year 11'), ('12', 'Year 12')], default='', max_length=2, verbose_name='Year group'),
        ),
    ]
