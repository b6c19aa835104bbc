"""The demo championship (``manage.py demo``): a seated tournament with games at every stage."""
