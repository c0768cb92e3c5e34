from django.db import models


class Item(models.Model):
    sku = models.CharField("SKU", max_length=32, unique=True)
    name = models.CharField(max_length=200)
    quantity = models.PositiveIntegerField(default=0)
    location = models.CharField(max_length=100)

    class Meta:
        ordering = ["sku"]

    def __str__(self):
        return f"{self.sku} {self.name}"


class StaffMember(models.Model):
    name = models.CharField(max_length=200)
    email = models.EmailField()
    department = models.CharField(max_length=100)

    class Meta:
        ordering = ["name"]
        verbose_name = "staff member"

    def __str__(self):
        return self.name
