"""The idempotency record moves from players to core: its table (players 0002) is kept as it
is, rows included; only Django's record of which app owns the model changes."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("players", "0002_idempotency_record"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='IdempotencyRecord',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('key', models.CharField(max_length=255)),
                        ('method', models.CharField(max_length=10)),
                        ('path', models.CharField(max_length=500)),
                        ('fingerprint', models.CharField(max_length=64)),
                        ('status_code', models.PositiveSmallIntegerField()),
                        ('body', models.JSONField(null=True)),
                        ('created_at', models.DateTimeField(auto_now_add=True, db_index=True)),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='idempotency_records', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'players_idempotencyrecord',
                        'constraints': [models.UniqueConstraint(fields=('user', 'key', 'method', 'path'), name='unique_idempotency_key')],
                    },
                ),
            ],
        )
    ]
