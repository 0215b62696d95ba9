"""Who acts next at a table and when: a person, a bot, a stand-in for someone away, or
a clock running out.
"""
